/// @brief Form layouts of the FCM and fuzzy connectedness dialogs.
#include "lucent/ui/SegmentDialogs.h"

#include "ParameterFields.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace lucent::ui {

namespace {

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
    constexpr Method fcm = Method::FuzzyCMeans;
    m_clusters = integerField(parameterRow(fcm, "clusters"), "fcmClusters", this);
    m_clusters->setValue(initial.clusters);
    m_fuzziness = numberField(parameterRow(fcm, "fuzziness"), 2, "fcmFuzziness", this);
    m_fuzziness->setValue(initial.fuzziness);
    m_epsilon = numberField(parameterRow(fcm, "epsilon"), 6, "fcmEpsilon", this);
    m_epsilon->setValue(initial.epsilon);
    m_iterations = integerField(parameterRow(fcm, "max_iterations"), "fcmIterations", this);
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
    constexpr Method fc = Method::FuzzyConnectedness;
    m_threshold = numberField(parameterRow(fc, "threshold"), 3, "fcThresholdBox", this);
    m_threshold->setValue(initial.threshold);
    m_threshold->setSingleStep(0.01);
    m_mean = numberField(parameterRow(fc, "object_mean"), 2, "fcMean", this);
    m_mean->setValue(mean);
    m_sigma = numberField(parameterRow(fc, "object_sigma"), 3, "fcSigma", this);
    m_sigma->setValue(objectSigma);
    m_diff = numberField(parameterRow(fc, "diff_sigma"), 3, "fcDiffSigma", this);
    m_diff->setValue(diffSigma);
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
