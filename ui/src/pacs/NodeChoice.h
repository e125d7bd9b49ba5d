/// @brief The node chooser of Open from PACS and Send labels to PACS: a combo box that follows the node list.
#pragma once

#include "lucent/ui/PacsNodeList.h"

#include <QComboBox>

namespace lucent::ui {

/// Fills `combo` with the nodes (text "NAME  (ADDRESS)", data the name) and refills it whenever the
/// list changes (a node added in File > PACS nodes while the dialog is open); the choice is kept by name.
inline void followNodes(QComboBox* combo, const PacsNodeList& nodes) {
    const auto fill = [combo, &nodes] {
        const QString chosen = combo->currentData().toString();
        combo->clear();
        for (const PacsNodeEntry& e : nodes.nodes()) combo->addItem(QString("%1  (%2)").arg(e.name, e.address()), e.name);
        if (const int i = combo->findData(chosen); i >= 0) combo->setCurrentIndex(i);
    };
    fill();
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        QObject::connect(&nodes, signal, combo, fill);
    QObject::connect(&nodes, &QAbstractItemModel::dataChanged, combo, fill);
    QObject::connect(&nodes, &QAbstractItemModel::modelReset, combo, fill);
}

}  // namespace lucent::ui
