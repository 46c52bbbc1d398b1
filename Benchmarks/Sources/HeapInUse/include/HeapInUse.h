#include <stddef.h>
/// Bytes of the heap in use by malloc (glibc's mallinfo2: arenas and mmapped blocks); 0 where it is not available.
size_t heap_in_use(void);
