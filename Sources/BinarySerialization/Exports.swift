@_exported public import TreeCoding
