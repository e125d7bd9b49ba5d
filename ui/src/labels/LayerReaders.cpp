/// @brief The layer's reader tokens: a count under a mutex, and a condition that changes wait on.
#include "lucent/ui/LayerReaders.h"

namespace lucent::ui {

std::shared_ptr<void> LayerReaders::hold() const {
    std::shared_ptr<State> state = m_state;
    {
        std::lock_guard lock(state->mutex);
        ++state->held;
    }
    return std::shared_ptr<void>(nullptr, [state](void*) {
        {
            std::lock_guard lock(state->mutex);
            --state->held;
        }
        state->freed.notify_all();
    });
}

void LayerReaders::waitUntilFree() const {
    std::unique_lock lock(m_state->mutex);
    if (m_state->held == 0) return;
    ++m_state->waiting;
    m_state->freed.wait(lock, [this] { return m_state->held == 0; });
    --m_state->waiting;
}

int LayerReaders::held() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->held;
}

int LayerReaders::waiting() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->waiting;
}

}  // namespace lucent::ui
