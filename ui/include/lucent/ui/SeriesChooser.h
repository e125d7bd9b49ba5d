/// @brief Dialog listing the volumes found under a path, to pick the one to open.
#pragma once

#include "lucent/core/SeriesInfo.h"

#include <QDialog>

#include <vector>

class QTableWidget;

namespace lucent::ui {

class SeriesChooser : public QDialog {
    Q_OBJECT
public:
    SeriesChooser(const std::vector<SeriesInfo>& series, QWidget* parent = nullptr);
    /// Index of the chosen series (valid after exec() returned Accepted).
    int chosen() const;

private:
    QTableWidget* m_table;
};

}  // namespace lucent::ui
