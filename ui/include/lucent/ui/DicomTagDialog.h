/// @brief A searchable table of the DICOM elements of one file.
#pragma once

#include "lucent/io/DicomReader.h"

#include <QDialog>

namespace lucent::ui {

class DicomTagDialog : public QDialog {
    Q_OBJECT
public:
    DicomTagDialog(const QString& file, const std::vector<io::DicomTag>& tags, QWidget* parent = nullptr);
};

}  // namespace lucent::ui
