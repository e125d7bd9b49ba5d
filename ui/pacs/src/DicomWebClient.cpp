/// @brief DicomWebClient over Qt Network: QIDO-RS queries, WADO-RS series streamed part by part to files, STOW-RS of
/// files from disk.
#include "lucent/pacs/DicomWebClient.h"

#include "DicomJsonRecords.h"
#include "HttpSession.h"
#include "lucent/pacs/MultipartReader.h"

#include "lucent/net/DicomPart10.h"
#include "lucent/net/RetrieveStaging.h"

#include <QFile>
#include <QHttpMultiPart>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace lucent::pacs {

namespace fs = std::filesystem;

namespace {

const QByteArray kJson = "application/dicom+json";
/// Instances as stored (transfer-syntax=*): no transcoding on the server, the voxels as sent.
const QByteArray kInstances = "multipart/related; type=\"application/dicom\"; transfer-syntax=*";

/// key=value pairs, each value percent-encoded where a query needs it and nowhere else: Orthanc 1.10
/// matches QIDO-RS values without decoding them, so the wildcards '*' and '?' travel as they are
/// (Qt encodes '^' and spaces whatever we do: such names match there only through wildcards).
QString queryString(const std::vector<std::pair<QByteArray, std::string>>& pairs) {
    QStringList items;
    for (const auto& [key, value] : pairs)
        if (!value.empty())
            items << QString::fromLatin1(key + "=" +
                                         QUrl::toPercentEncoding(QString::fromStdString(value), "*?!$'(),;:@/"));
    return items.join('&');
}

}  // namespace

struct DicomWebClient::Impl {
    DicomWebEndpoint endpoint;
    QUrl base;
    HttpSession http;

    explicit Impl(DicomWebEndpoint e)
        : endpoint(std::move(e)),
          base(QUrl(QString::fromStdString(endpoint.url))),
          http({endpoint.user, endpoint.password, endpoint.token}, endpoint.timeoutSeconds, {endpoint.caFile}) {
        QString path = base.path();
        while (path.endsWith('/')) path.chop(1);
        base.setPath(path);
    }

    std::string label() const { return HttpSession::display(base); }

    QUrl at(const QString& path, const QString& query = {}) const {
        QUrl url(base);
        url.setPath(base.path() + path);
        if (!query.isEmpty()) url.setQuery(query, QUrl::TolerantMode);
        return url;
    }

    std::vector<net::FindRecord> query(const QUrl& url, net::QueryLevel level) {
        const HttpAnswer answer = http.get(url, kJson);
        try {
            return findRecordsFromJson(answer.body, level);
        } catch (const std::runtime_error& e) {
            throw net::PacsError(HttpSession::display(url) + ": " + e.what());
        }
    }

    std::map<std::string, int> expectedSeries(const net::RetrieveRequest& request);
    std::size_t fetchSeries(const std::string& study, const std::string& series, const net::RetrieveStaging& staging);
};

DicomWebClient::DicomWebClient(DicomWebEndpoint endpoint) : m_impl(std::make_unique<Impl>(std::move(endpoint))) {}
DicomWebClient::~DicomWebClient() = default;

bool DicomWebClient::available() { return true; }

void DicomWebClient::echo() { m_impl->http.get(m_impl->at("/studies", "limit=1"), kJson); }

std::vector<net::FindRecord> DicomWebClient::find(const net::FindQuery& q) {
    const bool series = q.level == net::QueryLevel::Series;
    std::vector<std::pair<QByteArray, std::string>> keys = {{"PatientName", q.patientName},
                                                            {"PatientID", q.patientId},
                                                            {"StudyDate", q.studyDate},
                                                            {series ? "Modality" : "ModalitiesInStudy", q.modality},
                                                            {"AccessionNumber", q.accessionNumber},
                                                            {"StudyInstanceUID", q.studyUid}};
    for (const QByteArray& field : qidoIncludeFields(q.level)) keys.push_back({"includefield", field.toStdString()});
    return m_impl->query(m_impl->at(series ? "/series" : "/studies", queryString(keys)), q.level);
}

std::map<std::string, int> DicomWebClient::Impl::expectedSeries(const net::RetrieveRequest& request) {
    const QString keys = queryString({{"StudyInstanceUID", request.studyUid},
                                      {"SeriesInstanceUID", request.seriesUid},
                                      {"includefield", "NumberOfSeriesRelatedInstances"}});
    const QUrl url = at("/series", keys);
    std::map<std::string, int> expected;
    for (const net::FindRecord& r : query(url, net::QueryLevel::Series))
        if (r.studyUid.empty() || r.studyUid == request.studyUid)
            if (request.seriesUid.empty() || r.seriesUid == request.seriesUid) expected[r.seriesUid] = r.instances;
    if (expected.empty())
        throw net::PacsError(label() + ": no " +
                             (request.seriesUid.empty()
                                  ? "study " + request.studyUid
                                  : "series " + request.seriesUid + " in study " + request.studyUid) +
                             " on the node; nothing retrieved");
    for (const auto& entry : expected)
        if (!net::isUid(entry.first))
            throw net::PacsError(HttpSession::display(url) + ": answered a malformed series UID '" + entry.first + "'");
    return expected;
}

/// WADO-RS of one series: each part written as TEMP/SERIES/SOPUID.dcm as soon as it is whole.
std::size_t DicomWebClient::Impl::fetchSeries(const std::string& study, const std::string& series,
                                              const net::RetrieveStaging& staging) {
    const QUrl url = at(QString::fromStdString("/studies/" + study + "/series/" + series));
    const fs::path folder = staging.seriesFolder(series);
    fs::create_directories(folder);
    std::optional<MultipartReader> reader;
    std::set<std::string> instances;
    const auto keep = [&](const QMap<QByteArray, QByteArray>& headers, const QByteArray& body) {
        const QByteArray type = headers.value("content-type", "application/dicom");
        const std::string uid = net::part10InstanceUid(std::string_view(body.constData(), body.size()));
        if (!type.toLower().startsWith("application/dicom") || !net::isUid(uid))
            throw net::PacsError(HttpSession::display(url) + ": part " + std::to_string(reader->parts()) +
                                 " is not a DICOM instance (" + type.toStdString() + "); nothing kept");
        QFile file(QString::fromStdString((folder / (uid + ".dcm")).string()));
        if (!file.open(QIODevice::WriteOnly) || file.write(body) != body.size() || !file.flush())
            throw net::PacsError(label() + ": cannot write " + file.fileName().toStdString() + ": " +
                                 file.errorString().toStdString() + "; nothing kept");
        instances.insert(uid);
    };
    try {
        http.get(url, kInstances, [&](const QByteArray& contentType, const QByteArray& chunk) {
            if (!reader) reader.emplace(contentType, keep);
            reader->feed(chunk);
        });
        if (!reader) throw MultipartError("the answer is empty");
        reader->finish();
    } catch (const MultipartError& e) {
        throw net::PacsError(HttpSession::display(url) + ": " + e.what() + "; nothing kept");
    }
    return instances.size();
}

std::vector<net::RetrievedSeries> DicomWebClient::retrieve(const net::RetrieveRequest& request) {
    net::checkRetrieveUids(request);
    const std::map<std::string, int> expected = m_impl->expectedSeries(request);
    net::RetrieveStaging staging(net::retrieveDestination(request), m_impl->label());
    std::map<std::string, std::size_t> received;
    for (const auto& entry : expected)
        received[entry.first] = m_impl->fetchSeries(request.studyUid, entry.first, staging);
    net::requireAllReceived(m_impl->label(), "WADO-RS of study " + request.studyUid, expected, received);
    return staging.commit(received);
}

namespace {

/// Refuses a file that STOW-RS cannot take before anything is sent: unreadable, or not Part 10.
void checkPart10(const std::string& path, const std::string& where) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        throw net::PacsError(path + ": cannot read: " + file.errorString().toStdString() + "; nothing was sent to " +
                             where);
    const QByteArray head = file.read(net::kPart10PrefixBytes);
    if (!net::isPart10(std::string_view(head.constData(), head.size())))
        throw net::PacsError(path + ": not a DICOM Part 10 file (no DICM marker); nothing was sent to " + where);
}

/// STOW-RS answers which instances failed in FailedSOPSequence (0008,1198), with a reason each.
std::string failures(const QByteArray& body) {
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    const QJsonArray failed = answer.value("00081198").toObject().value("Value").toArray();
    if (failed.isEmpty()) return {};
    const QJsonObject first = failed[0].toObject();
    const QString uid = first.value("00081155").toObject().value("Value").toArray().at(0).toString();
    const int reason = first.value("00081197").toObject().value("Value").toArray().at(0).toInt();
    return std::to_string(failed.size()) + " instance(s) refused, the first " + uid.toStdString() + " (reason " +
           std::to_string(reason) + ")";
}

}  // namespace

void DicomWebClient::store(const std::vector<std::string>& files) {
    const QUrl url = m_impl->at("/studies");
    for (const std::string& f : files) checkPart10(f, m_impl->label());
    auto* body = new QHttpMultiPart(QHttpMultiPart::RelatedType);
    for (const std::string& f : files) {
        auto* device = new QFile(QString::fromStdString(f), body);
        if (!device->open(QIODevice::ReadOnly)) {
            delete body;
            throw net::PacsError(f + ": cannot read: " + device->errorString().toStdString());
        }
        QHttpPart part;
        part.setHeader(QNetworkRequest::ContentTypeHeader, "application/dicom");
        part.setBodyDevice(device);
        body->append(part);
    }
    // STOW-RS wants the type parameter beside the boundary Qt chose.
    const QByteArray type = "multipart/related; type=\"application/dicom\"; boundary=" + body->boundary();
    const HttpAnswer answer = m_impl->http.post(url, body, type, kJson);
    const std::string failed = failures(answer.body);
    if (answer.status == 202 || !failed.empty())
        throw net::PacsError(HttpSession::display(url) + ": STOW-RS stored only part of the files: " +
                             (failed.empty() ? std::string("the server did not say which") : failed));
}

}  // namespace lucent::pacs
