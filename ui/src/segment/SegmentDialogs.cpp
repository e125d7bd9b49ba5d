/// @brief Form layouts of the FCM and fuzzy connectedness dialogs.
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/ui/SegmentDialogs.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace lucent::ui {

namespace {

QDoubleSpinBox* number(double lo, double hi, double value, int decimals, const char* name, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setDecimals(decimals);
    box->setValue(value);
    box->setObjectName(name);
    return box;
}

QDialogButtonBox* okCancel(QDialog* dialog) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}

}  // namespace

FcmDialog::FcmDialog(const FuzzyCMeansParams& initial, bool haveLayer, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Fuzzy C-means");
    auto* form = new QFormLayout(this);
    m_clusters = new QSpinBox(this);
    m_clusters->setRange(kFuzzyCMeansLimits.clusters.min, kFuzzyCMeansLimits.clusters.max);
    m_clusters->setValue(initial.clusters);
    m_clusters->setObjectName("fcmClusters");
    m_fuzziness = number(1.05, 10, initial.fuzziness, 2, "fcmFuzziness", this);
    m_epsilon = number(1e-6, 0.5, initial.epsilon, 6, "fcmEpsilon", this);
    m_iterations = new QSpinBox(this);
    m_iterations->setRange(kFuzzyCMeansLimits.maxIterations.min, kFuzzyCMeansLimits.maxIterations.max);
    m_iterations->setValue(initial.maxIterations);
    m_mask = new QCheckBox("only voxels of the label layer", this);
    m_mask->setEnabled(haveLayer);
    form->addRow("Clusters", m_clusters);
    form->addRow("Fuzziness m", m_fuzziness);
    form->addRow("Stop when memberships change less than", m_epsilon);
    form->addRow("Most iterations", m_iterations);
    form->addRow("Mask", m_mask);
    form->addRow(okCancel(this));
}

FuzzyCMeansParams FcmDialog::params() const {
    FuzzyCMeansParams p;
    p.clusters = m_clusters->value();
    p.fuzziness = m_fuzziness->value();
    p.epsilon = m_epsilon->value();
    p.maxIterations = m_iterations->value();
    return p;
}

bool FcmDialog::maskedByLayer() const { return m_mask->isChecked(); }

FcDialog::FcDialog(const FuzzyConnectednessParams& initial, double mean, double objectSigma, double diffSigma,
                   const QStringList& seeds, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle("Fuzzy connectedness");
    auto* form = new QFormLayout(this);
    auto* seedText = new QLabel(QString("Runs from %1 seed(s): %2. The object's statistics were estimated around "
                                        "them; edit them to steer the affinity. (Clear seeds on the panel to start "
                                        "over.)")
                                    .arg(seeds.size())
                                    .arg(seeds.join("; ")),
                                this);
    seedText->setObjectName("fcSeeds");
    seedText->setWordWrap(true);
    form->addRow(seedText);
    const auto& threshold = kFuzzyConnectednessLimits.threshold;
    m_threshold = number(threshold.min, threshold.max, initial.threshold, 3, "fcThresholdBox", this);
    m_threshold->setSingleStep(0.01);
    m_mean = number(-1e9, 1e9, mean, 2, "fcMean", this);
    m_sigma = number(1e-6, 1e9, objectSigma, 3, "fcSigma", this);
    m_diff = number(1e-6, 1e9, diffSigma, 3, "fcDiffSigma", this);
    form->addRow("Threshold (0..1, live afterwards)", m_threshold);
    form->addRow("Object mean M", m_mean);
    form->addRow("Object sigma S", m_sigma);
    form->addRow("Difference sigma D", m_diff);
    form->addRow(okCancel(this));
}

FuzzyConnectednessParams FcDialog::params() const {
    FuzzyConnectednessParams p;
    p.threshold = m_threshold->value();
    p.objectMean = m_mean->value();
    p.objectSigma = m_sigma->value();
    p.diffSigma = m_diff->value();
    return p;
}

}  // namespace lucent::ui
