/// @brief PacsActions for builds without Qt Network and SQL: the items are listed, greyed, saying what the build lacks
/// (DIMSE alone is not enough: retrieved series are indexed in the study database).
#include "lucent/ui/PacsActions.h"

#include "lucent/pacs/StudyDatabase.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/ViewerModel.h"

#include <QStatusBar>

#include <QMenu>
#include <QMessageBox>

namespace lucent::ui {

namespace {

const QString kWhy = "this build has no Qt 6 Network and SQL";

void greyed(QMenu* file, const QString& text, const char* name) {
    QAction* a = file->addAction(QString("%1 (%2)").arg(text, kWhy));
    a->setObjectName(name);
    a->setEnabled(false);
}

}  // namespace

PacsActions::PacsActions(PacsHost host) : QObject(host.window), m_host(std::move(host)) {}

PacsActions::~PacsActions() = default;

void PacsActions::addOpenActions(QMenu* file) {
    greyed(file, "DICOM browser", "dicomBrowser");
    greyed(file, "Open from PACS", "openFromPacs");
    greyed(file, "PACS nodes", "pacsNodes");
}

void PacsActions::addSendAction(QMenu* file) { greyed(file, "Send labels to PACS", "sendLabelsToPacs"); }

pacs::StudyDatabase* PacsActions::database() { return nullptr; }

void PacsActions::indexOpened(const SeriesInfo&) {}  // no database in this build

PasswordAsker PacsActions::asker() { return {}; }

QDialog* PacsActions::showBrowser() {
    QMessageBox::information(m_host.window, "DICOM browser", "The DICOM browser is not available: " + kWhy + ".");
    return nullptr;
}

QDialog* PacsActions::showOpenFromPacs() {
    QMessageBox::information(m_host.window, "Open from PACS", "Open from PACS is not available: " + kWhy + ".");
    return nullptr;
}

QDialog* PacsActions::showNodes() {
    QMessageBox::information(m_host.window, "PACS nodes", "PACS nodes are not available: " + kWhy + ".");
    return nullptr;
}

QDialog* PacsActions::showSend() {
    QMessageBox::information(m_host.window, "Send labels to PACS", "Sending labels is not available: " + kWhy + ".");
    return nullptr;
}

}  // namespace lucent::ui
