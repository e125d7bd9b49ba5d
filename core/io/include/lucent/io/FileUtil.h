/// @brief Whole-file reading, atomic writing (no half-written output) and zlib/gzip buffers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lucent::io {

/// Why `path` cannot be read as a file ("PATH: no such file", "PATH: not a regular file (a FIFO)"),
/// or empty when it is a regular file. Never opens it.
std::string whyNotRegularFile(const std::string& path);

/// Why a file cannot be written at `path` ("cannot write OUT: folder DIR does not exist", "...: folder
/// DIR is not writable (Permission denied)", "...: it is a folder"), or empty when its folder exists
/// and this process may create files in it. Writes nothing: a command asks before it computes.
std::string whyNotWritable(const std::string& path);

/// Reads a whole regular file; throws IoError naming it when it is missing, not a regular file
/// (a FIFO or device would block or never end), or larger than readLimitBytes() (ReadLimits.h).
std::vector<char> readFile(const std::string& path);

/// Reads the data file `name` that the header `header` refers to (relative to the header's folder);
/// errors name the header too ("H.nhdr: data file /dev/zero: not a regular file ...").
std::vector<char> readDataFile(const std::string& header, const std::string& name);
/// Where the data file `name` of the header `header` lies (relative names are beside the header).
std::string dataFilePath(const std::string& header, const std::string& name);

/// The regular files under `path`, sorted: every file of a folder (recursively), or `path` itself
/// when it is a file. Throws IoError naming `path` when it is missing or neither (a FIFO, a device).
std::vector<std::string> filesUnder(const std::string& path);

/// Writes the concatenation of `parts` to a temporary file beside `path`, flushes it to disk and
/// renames it over `path`: a reader never sees a partial file, and on any failure (full disk,
/// missing folder, no permission) nothing is left behind and IoError names the file and the cause.
/// The temporary is removed on SIGINT, SIGTERM and SIGHUP too (TemporaryFile.h). While a
/// StagedOutputs is open on this thread, the rename waits for its commit() (StagedOutputs.h).
void writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts);

/// Drops the page cache of `path`, an existing regular file, leaving its bytes on disk (anything
/// else, or a missing file, is left alone): an output about to be replaced, so that the rename over
/// it frees its blocks only, not gigabytes of cached pages, on the command's path. A hint: nothing
/// to report.
void dropCachedPages(const std::string& path);

/// Inflates a zlib or gzip stream (auto-detected) and stops after `limit` bytes: the header's
/// promise bounds the work, so a small file that inflates to gigabytes costs no more than the
/// promise. The result is shorter than `limit` when the stream ends first; `source` names the file
/// in errors. A stream of several gzip members (gzip, pigz, bgzip, `cat a.gz b.gz`) is their data
/// end to end.
std::vector<char> inflateBuffer(std::string_view compressed, const std::string& source, std::size_t limit);
/// A gzip stream kept in the chunks it was made in (written with no copy into one buffer).
struct GzipStream {
    std::vector<std::vector<char>> chunks;  ///< the header, the deflated pieces, the trailer
    std::vector<std::string_view> parts() const;
};
/// Deflates the concatenation of `parts` into one gzip member on `threads` threads (0: all): fixed
/// pieces of the input deflated independently, each ending on a byte boundary, the last with the
/// final block, their CRCs combined (pigz's independent mode). Every gzip reader reads it as one
/// stream, since it is one member; the bytes depend on the input alone, not on the thread count.
GzipStream gzipParts(const std::vector<std::string_view>& parts, unsigned threads = 0);
/// The same stream in one buffer.
std::vector<char> gzipBuffer(const std::vector<std::string_view>& parts);

/// Lower-case copy (for extensions and header keys).
std::string toLower(std::string s);
/// Strips surrounding white space.
std::string trim(std::string_view s);
/// `s` with control characters and invalid UTF-8 escaped as \xNN (\n, \r, \t by name), so that
/// header bytes put into a message can neither break its line nor drive the terminal.
std::string printable(std::string_view s);

}  // namespace lucent::io
