// Reads a text file, plain or gzip-compressed (zlib tells them apart), one line at a time through
// a fixed-size buffer: memory stays constant whatever the file's length. Rejects what cannot be a
// text trace (NUL bytes, a line longer than kMaxLineBytes) and a damaged or truncated gzip stream,
// with a TraceError naming the file and line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ssd::workload {

class LineReader {
 public:
  static constexpr size_t kMaxLineBytes = 64 * 1024;

  explicit LineReader(const std::string& path);  // throws TraceError when it cannot open
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its line ending, valid until the next call; false at the end.
  bool next(std::string_view& line);
  uint64_t line_number() const { return m_line; }
  const std::string& path() const { return m_path; }

 private:
  bool refill();  // reads more bytes after the unconsumed tail; false at end of input

  std::string m_path;
  void* m_file = nullptr;  // gzFile, kept opaque so zlib.h stays out of this header
  std::vector<char> m_buffer;
  size_t m_begin = 0;  // first unconsumed byte
  size_t m_end = 0;    // one past the last byte read
  bool m_eof = false;
  uint64_t m_line = 0;
};

}  // namespace ssd::workload
