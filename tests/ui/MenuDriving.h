/// @brief Driving the viewer's menus and modal dialogs as a user does, for the menu action tests:
/// actions found by their menu path, file dialogs answered through their own name field, dialog
/// fields typed into, and the window fixture.
#pragma once

#include "EventLoopWait.h"

#include "lucent/ui/MainWindow.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>

/// GoogleTest prints a QString as text (it is looked up beside QString, in the global namespace).
inline void PrintTo(const QString& text, std::ostream* os) { *os << '"' << text.toStdString() << '"'; }

namespace lucent::testing {

inline QString plain(QString text) { return text.remove('&'); }

/// The action a user reaches through `menu` > `item`, or null. Texts without '&'; `menu` may name
/// a submenu as "Tools > Measure".
inline QAction* menuAction(QMainWindow& window, const QString& menu, const QString& item) {
    QList<QAction*> level = window.menuBar()->actions();
    for (const QString& name : menu.split(" > ")) {
        QMenu* found = nullptr;
        for (QAction* a : level)
            if (a->menu() && plain(a->text()) == name) found = a->menu();
        if (!found) return nullptr;
        level = found->actions();
    }
    for (QAction* a : level)
        if (plain(a->text()) == item) return a;
    return nullptr;
}

/// The parent of the handlers still waiting for their dialog: a test's TearDown drops them, so
/// that a dialog that never came is not answered in the next test.
inline QObject& pendingHandlers() {
    static QObject pending;
    return pending;
}

/// Acts on the next modal dialog of type T once it is shown, without blocking the event loop (its
/// exec() runs a loop of its own above whoever waits). `act` must close it.
template <typename T>
void whenModal(std::function<void(T*)> act) {
    auto* timer = new QTimer(&pendingHandlers());
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            act(dialog);
        }
    });
    timer->start(20);
}

/// Answers the next file dialog as a user does: the path in its file name field, then Return
/// (the dialog's own accept, which checks the file exists for Open and the folder for a
/// directory). `seen` gets the dialog's title, `filters` its file type filters. `then` runs once it
/// is accepted.
inline void chooseFile(const QString& path, QString* seen = nullptr, std::function<void()> then = {},
                       QStringList* filters = nullptr) {
    whenModal<QFileDialog>([path, seen, then, filters](QFileDialog* dialog) {
        if (seen) *seen = dialog->windowTitle();
        if (filters) *filters = dialog->nameFilters();
        auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
        if (!name) return dialog->reject();  // the test then sees no file chosen
        name->setFocus();
        name->setText(path);
        QTest::keyClick(name, Qt::Key_Return);
        if (dialog->isVisible()) dialog->reject();  // refused: never leave a modal loop behind
        if (then) then();
    });
}

/// Replaces what a spin box shows by `text`, typed (Ctrl+A selects the value, keys replace it).
inline void typeInto(QAbstractSpinBox* box, const QString& text) {
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, text);
}

/// A number as the user types it in this locale ("0.62" or "0,62").
inline QString typed(const char* number) { return QString(number).replace('.', QLocale().decimalPoint()); }

/// The field a form row labels `label`, in `dialog`.
template <typename T>
T* formField(QWidget* dialog, const QString& label) {
    for (auto* form : dialog->findChildren<QFormLayout*>())
        for (int row = 0; row < form->rowCount(); ++row) {
            auto* l = form->itemAt(row, QFormLayout::LabelRole);
            auto* f = form->itemAt(row, QFormLayout::FieldRole);
            auto* text = l ? qobject_cast<QLabel*>(l->widget()) : nullptr;
            if (text && f && text->text() == label) return qobject_cast<T*>(f->widget());
        }
    return nullptr;
}

/// Clicks the OK button of `dialog`'s button box.
inline void clickOk(QWidget* dialog) {
    auto* box = dialog->findChild<QDialogButtonBox*>();
    QPushButton* ok = box ? box->button(QDialogButtonBox::Ok) : nullptr;
    if (ok) QTest::mouseClick(ok, Qt::LeftButton);
}

/// A shown, active viewer window (Xvfb has no window manager: shortcuts need an active window).
class MenuWindow : public ::testing::Test {
protected:
    void SetUp() override {
        window = std::make_unique<ui::MainWindow>();
        window->resize(1280, 860);
        window->setLayoutMode(ui::Layout::Grid2x2);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        activate();
    }
    void TearDown() override {
        for (QObject* handler : pendingHandlers().children()) delete handler;
        window.reset();
    }
    void activate() {
        window->activateWindow();
        QApplication::setActiveWindow(window.get());
    }
    QAction* action(const QString& menu, const QString& item) {
        QAction* a = menuAction(*window, menu, item);
        EXPECT_NE(a, nullptr) << menu.toStdString() << " > " << item.toStdString();
        return a;
    }
    /// Chooses `menu` > `item` (the test fails, without a crash, when there is no such entry).
    void trigger(const QString& menu, const QString& item) {
        if (QAction* a = action(menu, item)) a->trigger();
    }
    ui::SliceViewWidget* axial() { return window->grid().view(render::Orientation::Axial); }
    /// The logical mouse point nearest to voxel (i, j) of the axial view's slice.
    QPoint screenOf(double i, double j) {
        const auto p = axial()->view().voxelToScreen({i, j, double(axial()->view().slice())});
        const double dpr = axial()->devicePixelRatioF();
        return QPoint(int(std::lround(p[0] / dpr)), int(std::lround(p[1] / dpr)));
    }
    /// A key pressed on the axial view (focus there, the window active), as a user types it.
    void key(Qt::Key k, Qt::KeyboardModifiers mods = {}) {
        activate();
        axial()->setFocus();
        QTest::keyClick(axial(), k, mods);
    }

    std::unique_ptr<ui::MainWindow> window;
};

}  // namespace lucent::testing
