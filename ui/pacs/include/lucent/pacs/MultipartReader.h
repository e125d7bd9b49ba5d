/// @brief Streaming reader of a multipart/related body (RFC 2387, WADO-RS): hands over each part as soon as it is
/// whole.
#pragma once

#include <QByteArray>
#include <QMap>

#include <functional>
#include <stdexcept>

namespace lucent::pacs {

/// A body that is not the multipart its Content-Type announced.
class MultipartError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Feed it the body in chunks of any size; it keeps at most one part (plus a delimiter) in memory.
class MultipartReader {
public:
    /// Part headers (names lower-cased) and the part's bytes.
    using PartHandler = std::function<void(const QMap<QByteArray, QByteArray>& headers, const QByteArray& body)>;

    /// `contentType` is the response's Content-Type header; MultipartError when it is not
    /// multipart or names no boundary.
    MultipartReader(const QByteArray& contentType, PartHandler handler);

    /// The boundary parameter of a multipart Content-Type (quotes removed), empty when absent.
    static QByteArray boundaryOf(const QByteArray& contentType);

    /// Consumes the next bytes of the body; calls the handler for every part completed by them.
    void feed(const QByteArray& chunk);
    /// The body ended: MultipartError unless the closing delimiter was read.
    void finish() const;
    /// Parts handed over so far.
    int parts() const { return m_parts; }

private:
    void deliver(const QByteArray& part);

    QByteArray m_delimiter;  ///< "--" + boundary
    PartHandler m_handler;
    QByteArray m_buffer;
    qsizetype m_searched = 0;  ///< bytes of m_buffer already searched for the next delimiter
    bool m_started = false, m_closed = false;
    int m_parts = 0;
};

}  // namespace lucent::pacs
