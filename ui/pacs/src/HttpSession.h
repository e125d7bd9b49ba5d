/// @brief HTTP requests over Qt Network, one at a time in a local event loop, with a timeout, credentials and one-line
/// errors.
#pragma once

#include <QByteArray>
#include <QList>
#include <QNetworkAccessManager>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

#include <functional>
#include <string>

class QHttpMultiPart;
class QNetworkReply;
class QNetworkRequest;

namespace lucent::pacs {

/// How we authenticate: HTTP basic (user and password) or a bearer token; none when both are empty.
struct HttpCredentials {
    std::string user, password;
    std::string token;
};

/// Whom we trust over HTTPS: the system's certificate authorities, and those of `caFile` (PEM) when set.
struct HttpTrust {
    std::string caFile;
};

/// What a request answered.
struct HttpAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray body;  ///< empty when streamed
};

/// Every failure throws net::PacsError "URL: what failed" (connection refused, HTTP 401 ..., a
/// timeout). Creates the QCoreApplication the event loop needs when the process has none.
class HttpSession {
public:
    /// net::PacsError naming the CA file when it holds no PEM certificate.
    HttpSession(HttpCredentials credentials, int timeoutSeconds, const HttpTrust& trust = {});

    /// Receives the body as it arrives: (Content-Type, next bytes). May throw: the transfer is
    /// then aborted and the exception rethrown by the request.
    using Stream = std::function<void(const QByteArray& contentType, const QByteArray& chunk)>;

    /// GET, the whole body in the answer (or handed to `stream` as it arrives, when given). A 404
    /// is answered (status 404, no throw) when `notFoundIsAnswer`.
    HttpAnswer get(const QUrl& url, const QByteArray& accept, const Stream& stream = {}, bool notFoundIsAnswer = false);
    /// POST of a multipart body (taken over) with this Content-Type.
    HttpAnswer post(const QUrl& url, QHttpMultiPart* body, const QByteArray& contentType, const QByteArray& accept);

    /// The URL as messages write it: without user information or query.
    static std::string display(const QUrl& url);

private:
    QNetworkRequest request(const QUrl& url, const QByteArray& accept) const;
    HttpAnswer wait(QNetworkReply* reply, const QUrl& url, const Stream& stream, bool notFoundIsAnswer);

    bool m_application;  ///< the QCoreApplication exists before the manager (declared first)
    QNetworkAccessManager m_manager;
    HttpCredentials m_credentials;
    QList<QSslCertificate> m_authorities;  ///< added to the system's for every request; empty: the system's only
    int m_timeoutSeconds;
};

}  // namespace lucent::pacs
