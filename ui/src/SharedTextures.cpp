/// @brief Upload-on-change for the shared textures.
#include "lucent/ui/SharedTextures.h"

namespace lucent::ui {

bool SharedTextures::sync(const ViewerModel& model, QString& error) {
    if (!model.hasVolume()) return true;
    if (model.volumeGeneration() != m_volumeGeneration) {
        std::string why;
        if (!m_textures.uploadVolume(*model.volume(), why)) {
            error = QString::fromStdString(why);
            return false;
        }
        m_volumeGeneration = model.volumeGeneration();
        m_linearApplied = false;
    }
    if (model.labelGeneration() != m_labelGeneration) {
        m_textures.uploadLabels(model.labels() ? *model.labels() : LabelMap());
        m_labelGeneration = model.labelGeneration();
    }
    if (!m_linearApplied) {
        m_textures.setInterpolation(m_linear);
        m_linearApplied = true;
    }
    return true;
}

void SharedTextures::setInterpolation(bool linear) {
    m_linear = linear;
    m_linearApplied = false;
}

}  // namespace lucent::ui
