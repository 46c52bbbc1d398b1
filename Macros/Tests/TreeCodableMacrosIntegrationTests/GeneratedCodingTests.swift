// Written once GeneratedBinaryCodable is in the library.
