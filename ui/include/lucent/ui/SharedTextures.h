/// @brief The one set of volume/label textures all views share (their GL contexts share objects).
#pragma once

#include "lucent/render/VolumeTextures.h"
#include "lucent/ui/ViewerModel.h"

#include <QString>

namespace lucent::ui {

class SharedTextures {
public:
    /// Uploads whatever changed in the model since the last call; a context of the share group
    /// must be current. Returns false with `error` when the driver refuses the volume.
    bool sync(const ViewerModel& model, QString& error);
    const render::VolumeTextures& textures() const { return m_textures; }
    void setInterpolation(bool linear);

private:
    render::VolumeTextures m_textures;
    int m_volumeGeneration = -1, m_labelGeneration = -1;
    bool m_linear = false, m_linearApplied = false;
};

}  // namespace lucent::ui
