/// @brief The PACS nodes of the preferences: a list model over QSettings (names, addresses, user names, token files;
/// never a password or a token).
#pragma once

#include "lucent/pacs/PacsConnection.h"

#include <QAbstractListModel>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QSettings;

namespace lucent::ui {

/// One node as the user configured it. A DIMSE node (AE title, host, port, our AE title, TLS) or a
/// DICOMweb base URL with a user name (password asked at use or LUCENT_PACS_PASSWORD) or a token
/// file (else LUCENT_PACS_TOKEN).
struct PacsNodeEntry {
    QString name;
    bool web = false;
    QString aeTitle, host;
    int port = 104;
    QString callingAeTitle = "LUCENT";
    bool tls = false;
    QString url, user, tokenFile;

    /// "AET@HOST:PORT" or the URL: what the node is, as the CLI's --pacs writes it.
    QString address() const;
    /// Empty when the entry can be used, else what is wrong with it, naming the node.
    QString problem() const;
    bool operator==(const PacsNodeEntry&) const = default;
};

/// Asks for the password of a DICOMweb user (the viewer: a dialog); nothing when the user cancels.
using PasswordAsker = std::function<std::optional<QString>(const QString& prompt)>;

/// The connection for `entry` with its secret, read now: the password from LUCENT_PACS_PASSWORD or
/// `ask`, the token from the token file or LUCENT_PACS_TOKEN. std::invalid_argument naming the node
/// when the entry is unusable or the secret cannot be had (Cancelled when the user cancels).
pacs::PacsConnection connectionFor(const PacsNodeEntry& entry, const PasswordAsker& ask);

class PacsNodeList : public QAbstractListModel {
    Q_OBJECT
public:
    explicit PacsNodeList(QObject* parent = nullptr);

    /// Reads the nodes from `settings` (group "pacs", array "nodes"), replacing those held.
    void load(QSettings& settings);
    /// Writes the nodes to `settings`, replacing the array there.
    void save(QSettings& settings) const;

    const std::vector<PacsNodeEntry>& nodes() const { return m_nodes; }
    /// Adds a node or replaces the one at `row`; returns its row.
    int put(const PacsNodeEntry& entry, int row = -1);
    void remove(int row);
    /// The row of the node named `name`, or -1.
    int find(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    std::vector<PacsNodeEntry> m_nodes;
};

}  // namespace lucent::ui
