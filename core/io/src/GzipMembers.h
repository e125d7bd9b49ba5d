/// @brief Reading past the end of one gzip member into the next: the rule both inflating readers share.
#pragma once

#include <zlib.h>

namespace lucent::io {

/// Call after inflate() returned Z_STREAM_END with input left and output still wanted. A gzip file
/// may hold several members whose data are one stream (gzip, pigz, bgzip, `cat a.gz b.gz`):
/// the next member is read as it comes, its header auto-detected again (garbage after the last
/// member then reads as corrupt data, not as a short file). Returns the code to go on with.
inline int nextGzipMember(z_stream& zs) { return inflateReset(&zs) == Z_OK ? Z_OK : Z_STREAM_ERROR; }

}  // namespace lucent::io
