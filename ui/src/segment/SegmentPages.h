/// @brief The Segment panel's page of each method: widgets bound to SegmentationModel (and, for what
/// only a run has, to LiveSegmentation). A page writes what the user changes into the model and
/// shows what the model holds in refresh(); it keeps no state of its own.
#pragma once

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/SegmentationModel.h"
#include "lucent/ui/StepScrubber.h"

#include <QWidget>

class QCheckBox;
class QListWidget;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QDoubleSpinBox;
class QSpinBox;

namespace lucent::ui {

class ViewerModel;

class SegmentPage : public QWidget {
public:
    SegmentPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent)
        : QWidget(parent), m_model(model), m_live(live) {}
    /// Shows the model's values (signals blocked: showing is not editing).
    virtual void refresh() = 0;

protected:
    /// A run of `method` exists.
    bool running(Method method) const { return m_live->active() && m_live->method() == method; }
    SegmentationModel* m_model;
    LiveSegmentation* m_live;
};

/// Every seed of the run, listed (voxel and slice): Go to (or a double-click) moves the views to it,
/// Remove takes it away, Clear takes all. Part of the pages of the seeded methods.
class SeedList : public QWidget {
public:
    SeedList(SegmentationModel* model, QWidget* parent);
    void refresh();

private:
    SegmentationModel* m_model;
    QLabel* m_count;
    QListWidget* m_list;
    std::vector<VoxelIndex> m_shown;
};

class IntervalHistogram;

/// Seeds, the interval (boxes, and handles on the volume's histogram), neighbours.
class RegionGrowingPage : public SegmentPage {
public:
    RegionGrowingPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent);
    void refresh() override;

private:
    QDoubleSpinBox *m_lower, *m_upper;
    IntervalHistogram* m_histogram;
    QComboBox* m_connectivity;
    SeedList* m_seeds;
};

/// The scrubber over the run's steps, propagation.
class SnakePage : public SegmentPage {
public:
    SnakePage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent);
    void refresh() override;

private:
    /// Replay: the scrubber from step 0 to the last at the run's pace (a finished run shown again).
    void replay();
    StepScrubber* m_steps;  // every polygon of the run
    QLabel* m_stepFigures;  // the scrubbed step's number and area
    QCheckBox* m_propagate;
    QSpinBox *m_margin, *m_stepMax, *m_minSegment;
};

/// The 3D snake: how a box is drawn (its depth) and a bubble (its radius), the domain's margin, the
/// iterations and smoothing, the values' clip (the window), the start drawn and a button that clears it, the
/// scrubber (Snake3dPage.cpp).
class Snake3dPage : public SegmentPage {
public:
    Snake3dPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent);
    void refresh() override;

private:
    /// "Values: clipped to the window, 0 .. 80 HU": the clip of the run, or the one the next start takes.
    QString valuesText() const;
    QSpinBox *m_depth, *m_iterations, *m_smoothing;
    QDoubleSpinBox *m_radius, *m_margin;
    QCheckBox* m_clip;  // the run takes the window as its clip
    QLabel* m_values;   // which values the run sees
    QLabel* m_start;
    QPushButton* m_clear;
    /// Replay: the scrubber from the first state to the last at the run's pace.
    void replay();
    StepScrubber* m_steps;  // every state of the run (LiveSegmentation::snake3dHistory)
    QLabel* m_stepFigures;  // the scrubbed state's step, voxels and volume
};

/// The live threshold, the estimated statistics, the connectivity map's heat.
class FuzzyConnectednessPage : public SegmentPage {
public:
    FuzzyConnectednessPage(SegmentationModel* model, LiveSegmentation* live, QWidget* parent);
    void refresh() override;

private:
    QSlider* m_threshold;
    QLabel *m_thresholdText, *m_figures;
    QCheckBox* m_heat;
    SeedList* m_seeds;
};

/// The clusters to accept (the legend, in the overlay's colours), a membership's heat.
class FuzzyCMeansPage : public SegmentPage {
public:
    FuzzyCMeansPage(SegmentationModel* model, LiveSegmentation* live, const ViewerModel* viewer, QWidget* parent);
    void refresh() override;

private:
    void fillClusters(int clusters);
    /// Each row's text: the cluster, its centre and the label Accept puts it into.
    void nameClusters();
    const ViewerModel* m_viewer;
    QListWidget* m_clusters;
    QComboBox* m_into;
    QComboBox* m_heat;
};

/// A sentence of help at the top of a page (wrapped, so it never widens the dock).
QLabel* pageNote(const QString& text, QWidget* parent);

}  // namespace lucent::ui
