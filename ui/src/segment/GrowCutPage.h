/// @brief Grow from seeds' page of the Segment panel (issue 46): how to paint the seeds, Start (Slicer's
/// Initialize), the labels' voxels and the last update's time.
#pragma once

#include "segment/SegmentPages.h"

class QLabel;
class QPushButton;

namespace lucent::ui {

class GrowCutSeeds;

class GrowCutPage : public SegmentPage {
public:
    GrowCutPage(SegmentationModel* model, LiveSegmentation* live, GrowCutSeeds* seeds, QWidget* parent);
    void refresh() override;

private:
    GrowCutSeeds* m_seeds;
    QPushButton *m_paint, *m_start;
    QLabel* m_figures;
};

}  // namespace lucent::ui
