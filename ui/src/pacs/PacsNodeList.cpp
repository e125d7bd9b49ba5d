/// @brief PacsNodeList: nodes to and from QSettings, and a node's connection with its secret read at use.
#include "lucent/ui/PacsNodeList.h"

#include "lucent/core/Errors.h"
#include "lucent/pacs/PacsSecrets.h"

#include <QSettings>

#include <stdexcept>

namespace lucent::ui {

namespace {

/// The keys of one node in the settings file; a password or token has none.
constexpr const char* kGroup = "pacs";
constexpr const char* kArray = "nodes";

std::string str(const QString& s) { return s.toStdString(); }

}  // namespace

QString PacsNodeEntry::address() const {
    if (web) return url;
    const bool v6 = host.contains(':');
    return QString("%1@%2:%3").arg(aeTitle, v6 ? "[" + host + "]" : host).arg(port);
}

QString PacsNodeEntry::problem() const {
    const QString who = name.trimmed().isEmpty() ? QString("a PACS node") : QString("PACS node '%1'").arg(name);
    if (name.trimmed().isEmpty()) return who + ": needs a name";
    try {
        const net::PacsAddress parsed = net::parsePacsAddress(str(address()));
        if (web != (parsed.kind == net::PacsAddress::Kind::DicomWeb))
            return who + ": " + address() + (web ? " is not a DICOMweb URL (http:// or https://)" : " is not AET@HOST:PORT");
        if (!web) net::checkAeTitle(str(callingAeTitle), "our AE title");
    } catch (const std::invalid_argument& e) {
        return who + ": " + e.what();
    }
    if (web && user.contains(':')) return who + ": the user name may not contain ':'";
    if (web && !user.isEmpty() && !tokenFile.isEmpty()) return who + ": give a user name or a token file, not both";
    return {};
}

pacs::PacsConnection connectionFor(const PacsNodeEntry& entry, const PasswordAsker& ask) {
    if (const QString why = entry.problem(); !why.isEmpty()) throw std::invalid_argument(str(why));
    const net::PacsAddress parsed = net::parsePacsAddress(str(entry.address()));
    if (!entry.web) {
        net::PacsNode node = parsed.node;
        node.callingAet = str(entry.callingAeTitle);
        node.tls = entry.tls;
        return pacs::PacsConnection(node);
    }
    pacs::DicomWebEndpoint endpoint;
    endpoint.url = parsed.url;
    if (!entry.user.isEmpty()) {
        endpoint.user = str(entry.user);
        if (!pacs::secretFromEnvironment(pacs::kPasswordVariable, endpoint.password)) {
            const std::optional<QString> password =
                ask ? ask(QString("Password for %1 at %2 (%3):").arg(entry.user, entry.name, entry.url)) : std::nullopt;
            if (!password) throw Cancelled();
            endpoint.password = str(*password);
        }
    } else if (!entry.tokenFile.isEmpty()) {
        endpoint.token = pacs::secretFromFile(str(entry.tokenFile), "PACS node '" + str(entry.name) + "': token file");
    } else {
        pacs::secretFromEnvironment(pacs::kTokenVariable, endpoint.token);
    }
    return pacs::PacsConnection(endpoint);
}

PacsNodeList::PacsNodeList(QObject* parent) : QAbstractListModel(parent) {}

void PacsNodeList::load(QSettings& settings) {
    beginResetModel();
    m_nodes.clear();
    settings.beginGroup(kGroup);
    const int n = settings.beginReadArray(kArray);
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        PacsNodeEntry e;
        e.name = settings.value("name").toString();
        e.web = settings.value("kind").toString() == "dicomweb";
        e.aeTitle = settings.value("aeTitle").toString();
        e.host = settings.value("host").toString();
        e.port = settings.value("port", e.port).toInt();
        e.callingAeTitle = settings.value("callingAeTitle", e.callingAeTitle).toString();
        e.tls = settings.value("tls", false).toBool();
        e.url = settings.value("url").toString();
        e.user = settings.value("user").toString();
        e.tokenFile = settings.value("tokenFile").toString();
        m_nodes.push_back(e);
    }
    settings.endArray();
    settings.endGroup();
    endResetModel();
}

void PacsNodeList::save(QSettings& settings) const {
    settings.beginGroup(kGroup);
    settings.remove(kArray);
    settings.beginWriteArray(kArray, int(m_nodes.size()));
    for (int i = 0; i < int(m_nodes.size()); ++i) {
        const PacsNodeEntry& e = m_nodes[std::size_t(i)];
        settings.setArrayIndex(i);
        settings.setValue("name", e.name);
        settings.setValue("kind", e.web ? "dicomweb" : "dimse");
        settings.setValue("aeTitle", e.aeTitle);
        settings.setValue("host", e.host);
        settings.setValue("port", e.port);
        settings.setValue("callingAeTitle", e.callingAeTitle);
        settings.setValue("tls", e.tls);
        settings.setValue("url", e.url);
        settings.setValue("user", e.user);
        settings.setValue("tokenFile", e.tokenFile);
    }
    settings.endArray();
    settings.endGroup();
    settings.sync();
}

int PacsNodeList::put(const PacsNodeEntry& entry, int row) {
    if (row >= 0 && row < rowCount()) {
        m_nodes[std::size_t(row)] = entry;
        emit dataChanged(index(row), index(row));
        return row;
    }
    beginInsertRows({}, rowCount(), rowCount());
    m_nodes.push_back(entry);
    endInsertRows();
    return rowCount() - 1;
}

void PacsNodeList::remove(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    m_nodes.erase(m_nodes.begin() + row);
    endRemoveRows();
}

int PacsNodeList::find(const QString& name) const {
    for (int i = 0; i < rowCount(); ++i)
        if (m_nodes[std::size_t(i)].name == name) return i;
    return -1;
}

int PacsNodeList::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_nodes.size()); }

QVariant PacsNodeList::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const PacsNodeEntry& e = m_nodes[std::size_t(index.row())];
    if (role == Qt::DisplayRole) return QString("%1  (%2)").arg(e.name, e.address());
    if (role == Qt::EditRole) return e.name;
    return {};
}

}  // namespace lucent::ui
