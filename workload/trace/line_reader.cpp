#include "workload/trace/line_reader.h"

#include <cstring>

#include <zlib.h>

#include "workload/trace/trace_error.h"

namespace ssd::workload {

namespace {

constexpr size_t kBufferBytes = 1 << 20;  // large blocks: one gzread per ~20k lines

}  // namespace

LineReader::LineReader(const std::string& path) : m_path(path), m_buffer(kBufferBytes) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) {
    throw TraceError(path, 0, std::string("cannot open the trace: ") + std::strerror(errno));
  }
  gzbuffer(file, 256 * 1024);
  m_file = file;
}

LineReader::~LineReader() {
  if (m_file) gzclose(static_cast<gzFile>(m_file));
}

bool LineReader::refill() {
  if (m_eof) return false;
  // Move the unfinished line to the front, then fill the rest of the buffer.
  if (m_begin > 0) {
    std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  const size_t room = m_buffer.size() - m_end;
  gzFile file = static_cast<gzFile>(m_file);
  const int got = gzread(file, m_buffer.data() + m_end, static_cast<unsigned>(room));
  int code = Z_OK;
  const char* message = gzerror(file, &code);
  if (got < 0 || (code != Z_OK && code != Z_STREAM_END)) {
    // Z_BUF_ERROR is zlib's "unexpected end of file": a gzip stream cut short.
    const std::string why = code == Z_BUF_ERROR ? "the gzip stream is truncated"
                                                : std::string("cannot read the trace: ") + message;
    throw TraceError(m_path, m_line + 1, why);
  }
  if (got == 0) {
    m_eof = true;
    return false;
  }
  m_end += static_cast<size_t>(got);
  return true;
}

bool LineReader::next(std::string_view& line) {
  size_t scanned = m_begin;  // bytes of the current line already searched for a newline
  while (true) {
    const char* start = m_buffer.data() + m_begin;
    const void* newline = std::memchr(m_buffer.data() + scanned, '\n', m_end - scanned);
    size_t length;
    if (newline) {
      length = static_cast<size_t>(static_cast<const char*>(newline) - start);
    } else {
      if (m_end - m_begin > kMaxLineBytes) {
        throw TraceError(
            m_path, m_line + 1,
            "a line longer than " + std::to_string(kMaxLineBytes) + " bytes: not a text trace");
      }
      const size_t unfinished = m_end - m_begin;
      if (refill()) {
        scanned = m_begin + unfinished;
        continue;
      }
      if (m_end == m_begin) return false;
      length = m_end - m_begin;  // the last line has no newline
    }
    if (length > kMaxLineBytes) {
      throw TraceError(
          m_path, m_line + 1,
          "a line longer than " + std::to_string(kMaxLineBytes) + " bytes: not a text trace");
    }
    ++m_line;
    line = std::string_view(start, length);
    m_begin += length + (newline ? 1 : 0);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (std::memchr(line.data(), '\0', line.size())) {
      throw TraceError(m_path, m_line, "binary data (a NUL byte): not a text trace");
    }
    return true;
  }
}

}  // namespace ssd::workload
