/// @brief The answers of a C-FIND / QIDO-RS query as a table: studies (patient, date, description, modalities) or
/// the series of one study.
#pragma once

#include "lucent/net/PacsClient.h"

#include <QAbstractTableModel>

#include <vector>

namespace lucent::ui {

class PacsResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit PacsResultsModel(net::QueryLevel level, QObject* parent = nullptr);

    void setRecords(std::vector<net::FindRecord> records);
    const std::vector<net::FindRecord>& records() const { return m_records; }
    const net::FindRecord& record(int row) const { return m_records.at(std::size_t(row)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    net::QueryLevel m_level;
    std::vector<net::FindRecord> m_records;
};

}  // namespace lucent::ui
