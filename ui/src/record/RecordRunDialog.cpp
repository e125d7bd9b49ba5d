/// @brief The recording's target and options, checked by RecordingPlan before OK closes.
#include "lucent/ui/RecordRunDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <stdexcept>

namespace lucent::ui {

RecordRunDialog::RecordRunDialog(const QString& path, int every, int fps, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Record this run");
    auto* form = new QFormLayout(this);
    auto* row = new QHBoxLayout;
    m_path = new QLineEdit(path, this);
    m_path->setObjectName("recordPath");
    m_path->setToolTip("OUT.mp4 (through ffmpeg) or a folder for numbered PNGs and frames.json");
    auto* browse = new QPushButton("Browse...", this);
    browse->setObjectName("recordBrowse");
    connect(browse, &QPushButton::clicked, this, &RecordRunDialog::browse);
    row->addWidget(m_path);
    row->addWidget(browse);
    form->addRow("Save to", row);
    m_every = new QSpinBox(this);
    m_every->setObjectName("recordEvery");
    m_every->setRange(1, 10000);
    m_every->setValue(every);
    m_every->setSuffix(" steps");
    form->addRow("One frame every", m_every);
    m_fps = new QSpinBox(this);
    m_fps->setObjectName("recordFps");
    m_fps->setRange(RecordingPlan::kMinFps, RecordingPlan::kMaxFps);
    m_fps->setValue(fps);
    m_fps->setSuffix(" fps");
    form->addRow("MP4 frame rate", m_fps);
    m_what = new QLabel(this);
    m_what->setObjectName("recordWhat");
    m_what->setWordWrap(true);
    form->addRow(m_what);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("Record");
    connect(buttons, &QDialogButtonBox::accepted, this, &RecordRunDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RecordRunDialog::reject);
    form->addRow(buttons);
    connect(m_path, &QLineEdit::textChanged, this, &RecordRunDialog::describe);
    describe();
}

std::optional<RecordingPlan> RecordRunDialog::plan() const {
    try {
        return RecordingPlan(m_path->text().trimmed(), m_fps->value());
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

int RecordRunDialog::every() const {
    return m_every->value();
}

void RecordRunDialog::describe() {
    // What OK will do, said before it is done: the run shown is recorded again from its start.
    const auto p = plan();
    QString text = !p ? QString("Name OUT.mp4 or a folder.")
                      : p->toMp4() ? QString("An MP4 video: %1.").arg(p->target())
                                   : QString("Numbered PNGs and frames.json in %1/.").arg(p->target());
    if (p && !p->fallbackNotice().isEmpty()) text = p->fallbackNotice() + ".";
    m_what->setText(text + " The run shown is recorded from its start; with none, the next run you start.");
}

void RecordRunDialog::browse() {
    // Qt's own dialog: the same on every desktop, and a test can drive it.
    const QString path = QFileDialog::getSaveFileName(this, "Record this run", m_path->text(),
                                                      "MP4 video (*.mp4);;Folder of PNG frames (*)", nullptr,
                                                      QFileDialog::DontUseNativeDialog | QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) m_path->setText(path);
}

void RecordRunDialog::accept() {
    if (!plan()) return describe();
    QDialog::accept();
}

}  // namespace lucent::ui
