/// @brief Waiting in tests that drive Qt: runs the event loop until a condition holds.
#pragma once

#include <QElapsedTimer>
#include <QTest>

#include <functional>

namespace lucent::testing {

/// Runs the event loop until `done` or the timeout; GoogleTest asserts on the result (QTest's QTRY
/// macros report to QTest, which GoogleTest does not see). The timeout is long: a sanitizer build
/// reads a DICOM file in seconds, and only a failing test waits it out.
inline bool waitFor(const std::function<bool()>& done, int ms = 60000) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms) return false;
        QTest::qWait(10);
    }
    return true;
}

}  // namespace lucent::testing
