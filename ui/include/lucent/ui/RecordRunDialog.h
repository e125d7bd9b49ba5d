/// @brief Segment > Record this run...'s question: where (OUT.mp4 or a folder of PNGs, typed or
/// chosen with Browse...), one frame every how many steps, and the MP4's frame rate.
#pragma once

#include "lucent/ui/RecordingPlan.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace lucent::ui {

class RecordRunDialog : public QDialog {
    Q_OBJECT
public:
    /// `path`, `every`, `fps`: what the fields show first (the last recording's).
    RecordRunDialog(const QString& path, int every, int fps, QWidget* parent = nullptr);
    /// The plan of the fields (after OK: always one; OK is refused while the fields make none).
    std::optional<RecordingPlan> plan() const;
    int every() const;

    void accept() override;

private:
    void browse();
    void describe();

    QLineEdit* m_path;
    QSpinBox *m_every, *m_fps;
    QLabel* m_what;
};

}  // namespace lucent::ui
