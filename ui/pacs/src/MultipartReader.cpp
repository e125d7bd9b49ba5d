/// @brief MultipartReader: finds delimiters across chunk edges, splits each part into headers and body.
#include "lucent/pacs/MultipartReader.h"

#include <QList>

#include <algorithm>

namespace lucent::pacs {

QByteArray MultipartReader::boundaryOf(const QByteArray& contentType) {
    for (const QByteArray& raw : contentType.split(';')) {
        const QByteArray param = raw.trimmed();
        if (!param.toLower().startsWith("boundary=")) continue;
        QByteArray value = param.mid(9).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.mid(1, value.size() - 2);
        return value;
    }
    return {};
}

MultipartReader::MultipartReader(const QByteArray& contentType, PartHandler handler) : m_handler(std::move(handler)) {
    if (!contentType.trimmed().toLower().startsWith("multipart/"))
        throw MultipartError("the answer is '" + contentType.toStdString() + "', not multipart");
    const QByteArray boundary = boundaryOf(contentType);
    if (boundary.isEmpty() || boundary.size() > 70)
        throw MultipartError("the multipart answer names no valid boundary ('" + contentType.toStdString() + "')");
    m_delimiter = "--" + boundary;
}

void MultipartReader::feed(const QByteArray& chunk) {
    if (m_closed) return;  // an epilogue after the closing delimiter is ignored (RFC 2046)
    m_buffer += chunk;
    if (!m_started) {
        // The preamble ends at the first delimiter, at the very start or after a CRLF.
        const qsizetype first = m_buffer.startsWith(m_delimiter) ? 0 : m_buffer.indexOf("\r\n" + m_delimiter);
        if (first < 0) {
            // Keep only what could still begin a delimiter.
            if (m_buffer.size() > m_delimiter.size() + 2) m_buffer.remove(0, m_buffer.size() - m_delimiter.size() - 2);
            return;
        }
        m_buffer.remove(0, first + (first == 0 ? 0 : 2) + m_delimiter.size());
        m_started = true;
    }
    // m_buffer now starts right after a delimiter: "--" closes, else the line ends and a part follows.
    while (true) {
        if (m_buffer.size() < 2) return;
        if (m_buffer.startsWith("--")) {
            m_closed = true;
            m_buffer.clear();
            return;
        }
        const qsizetype lineEnd = m_buffer.indexOf("\r\n");
        if (lineEnd < 0) return;
        const QByteArray delimiter = "\r\n" + m_delimiter;
        // Search only the bytes not searched before (a large part arrives in many chunks).
        const qsizetype next = m_buffer.indexOf(delimiter, std::max(lineEnd, m_searched));
        if (next < 0) {
            m_searched = std::max<qsizetype>(0, m_buffer.size() - delimiter.size() + 1);
            return;
        }
        deliver(m_buffer.mid(lineEnd + 2, next - lineEnd - 2));
        m_buffer.remove(0, next + delimiter.size());
        m_searched = 0;
    }
}

void MultipartReader::deliver(const QByteArray& part) {
    const qsizetype split = part.indexOf("\r\n\r\n");
    const bool noHeaders = part.startsWith("\r\n");
    if (split < 0 && !noHeaders) throw MultipartError("a part of the multipart answer has no end of headers");
    QMap<QByteArray, QByteArray> headers;
    if (!noHeaders)
        for (const QByteArray& line : part.left(split).split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0) headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
    ++m_parts;
    m_handler(headers, noHeaders ? part.mid(2) : part.mid(split + 4));
}

void MultipartReader::finish() const {
    if (!m_closed)
        throw MultipartError("the multipart answer ended after " + std::to_string(m_parts) +
                             " part(s) without its closing delimiter (cut short)");
}

}  // namespace lucent::pacs
