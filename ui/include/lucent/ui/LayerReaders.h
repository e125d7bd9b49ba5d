/// @brief Workers that read the label layer in place (the autosave's whole-layer copy), and the wait
/// of every change of the layer for them: the GUI thread never copies the whole layer for a worker,
/// and a worker never reads a half-changed layer.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>

namespace lucent::ui {

class LayerReaders {
public:
    /// A worker is about to read the layer: it stays unchanged until the returned token is destroyed
    /// (the worker done, or its job dropped unrun). Any thread may release it.
    std::shared_ptr<void> hold() const;
    /// Blocks until no token is held. Every change of the layer calls it first (ViewerModel's
    /// labelLayer(), undo, redo; a brush stroke before each stamp).
    void waitUntilFree() const;
    /// Tokens held now.
    int held() const;
    /// Callers blocked in waitUntilFree() now (tests see an edit wait without a clock).
    int waiting() const;

private:
    struct State {
        std::mutex mutex;
        std::condition_variable freed;
        int held = 0, waiting = 0;
    };
    // Shared with the tokens: a worker may release its token after the model is gone.
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

}  // namespace lucent::ui
