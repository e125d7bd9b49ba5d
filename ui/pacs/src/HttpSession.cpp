/// @brief HttpSession: Qt Network requests waited for in a QEventLoop, a watchdog timer restarted by every byte, errors
/// as one line.
#include "HttpSession.h"

#include "lucent/pacs/QtApplication.h"

#include "lucent/net/PacsNode.h"

#include <QEventLoop>
#include <QHttpMultiPart>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QTimer>

#include <exception>
#include <memory>

namespace lucent::pacs {

namespace {

/// What the status means for the user, beside the server's reason phrase.
std::string statusHint(int status) {
    switch (status) {
        case 401:
            return " (wrong or missing credentials)";
        case 403:
            return " (these credentials may not do this)";
        case 404:
            return " (no such resource)";
        default:
            return status >= 500 ? " (the server failed)" : "";
    }
}

}  // namespace

HttpSession::HttpSession(HttpCredentials credentials, int timeoutSeconds, const HttpTrust& trust)
    : m_application((ensureQtApplication(), true)),
      m_credentials(std::move(credentials)),
      m_timeoutSeconds(timeoutSeconds) {
    if (trust.caFile.empty()) return;
    m_authorities = QSslCertificate::fromPath(QString::fromStdString(trust.caFile), QSsl::Pem);
    if (m_authorities.isEmpty()) throw net::PacsError(trust.caFile + ": no PEM certificate to trust in it (--ca-file)");
}

std::string HttpSession::display(const QUrl& url) {
    return url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery).toStdString();
}

QNetworkRequest HttpSession::request(const QUrl& url, const QByteArray& accept) const {
    QNetworkRequest r(url);
    r.setRawHeader("Accept", accept);
    // Our Authorization header goes with a redirect: only to the same scheme, host and port.
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    if (!m_authorities.isEmpty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificates(m_authorities);
        r.setSslConfiguration(tls);
    }
    // Sent with the first request (no 401 round trip; a wrong password is refused once, not retried).
    if (!m_credentials.token.empty())
        r.setRawHeader("Authorization", "Bearer " + QByteArray::fromStdString(m_credentials.token));
    else if (!m_credentials.user.empty())
        r.setRawHeader(
            "Authorization",
            "Basic " + QByteArray::fromStdString(m_credentials.user + ":" + m_credentials.password).toBase64());
    return r;
}

HttpAnswer HttpSession::get(const QUrl& url, const QByteArray& accept, const Stream& stream, bool notFoundIsAnswer) {
    return wait(m_manager.get(request(url, accept)), url, stream, notFoundIsAnswer);
}

HttpAnswer HttpSession::post(const QUrl& url, QHttpMultiPart* body, const QByteArray& contentType,
                             const QByteArray& accept) {
    QNetworkRequest r = request(url, accept);
    r.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    QNetworkReply* reply = m_manager.post(r, body);
    body->setParent(reply);
    return wait(reply, url, {}, false);
}

HttpAnswer HttpSession::wait(QNetworkReply* reply, const QUrl& url, const Stream& stream, bool notFoundIsAnswer) {
    std::unique_ptr<QNetworkReply> owned(reply);
    QEventLoop loop;
    QTimer watchdog;
    watchdog.setSingleShot(true);
    watchdog.setInterval(m_timeoutSeconds * 1000);
    bool timedOut = false;
    std::exception_ptr failure;
    const auto status = [reply] { return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(); };
    QObject::connect(&watchdog, &QTimer::timeout, reply, [&] {
        timedOut = true;
        reply->abort();
    });
    QObject::connect(reply, &QNetworkReply::uploadProgress, &watchdog, [&] { watchdog.start(); });
    QObject::connect(reply, &QNetworkReply::readyRead, &watchdog, [&] {
        watchdog.start();
        // An error's body is read whole at the end; a good one is streamed when asked.
        if (!stream || failure || status() < 200 || status() >= 300) return;
        try {
            stream(reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(), reply->readAll());
        } catch (...) {
            failure = std::current_exception();
            reply->abort();
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    watchdog.start();
    if (!reply->isFinished()) loop.exec();
    if (failure) std::rethrow_exception(failure);
    const std::string where = display(url) + ": ";
    if (timedOut) throw net::PacsError(where + "no answer within " + std::to_string(m_timeoutSeconds) + " s (timeout)");
    HttpAnswer answer{status(), reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(), reply->readAll()};
    if (answer.status == 404 && notFoundIsAnswer) return answer;
    if (answer.status >= 400)
        throw net::PacsError(where + "HTTP " + std::to_string(answer.status) + " " +
                             reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().toStdString() +
                             statusHint(answer.status));
    if (reply->error() != QNetworkReply::NoError) throw net::PacsError(where + reply->errorString().toStdString());
    if (stream && !answer.body.isEmpty()) stream(answer.contentType, answer.body);
    if (stream) answer.body.clear();
    return answer;
}

}  // namespace lucent::pacs
