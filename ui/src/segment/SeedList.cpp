/// @brief The seeds of a seeded method, listed with Go to, Remove and Clear (SegmentPages.h).
#include "SegmentPages.h"

#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>

namespace lucent::ui {

SeedList::SeedList(SegmentationModel* model, QWidget* parent) : QWidget(parent), m_model(model) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    m_count = new QLabel("no seeds", this);
    m_list = new QListWidget(this);
    m_list->setObjectName("seedList");
    m_list->setMaximumHeight(90);
    auto* goTo = new QPushButton("Go to", this);
    auto* remove = new QPushButton("Remove", this);
    auto* clear = new QPushButton("Clear seeds", this);
    goTo->setObjectName("goToSeed");
    remove->setObjectName("removeSeed");
    clear->setObjectName("clearSeeds");
    grid->addWidget(m_count, 0, 0, 1, 3);
    grid->addWidget(m_list, 1, 0, 1, 3);
    grid->addWidget(goTo, 2, 0);
    grid->addWidget(remove, 2, 1);
    grid->addWidget(clear, 2, 2);
    connect(goTo, &QPushButton::clicked, this, [this] { m_model->goToSeed(m_list->currentRow()); });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) { m_model->goToSeed(m_list->row(item)); });
    connect(remove, &QPushButton::clicked, this, [this] { m_model->removeSeed(m_list->currentRow()); });
    connect(clear, &QPushButton::clicked, this, [this] { m_model->clearSeeds(); });
}

void SeedList::refresh() {
    const auto& seeds = m_model->seeds();
    if (seeds == m_shown && m_list->count() == int(seeds.size())) return;  // refreshed every frame of a run
    m_shown = seeds;
    m_count->setText(seeds.empty() ? QString("no seeds: click on a view") : QString("%1 seed(s)").arg(seeds.size()));
    const QSignalBlocker blocker(m_list);
    const int current = m_list->currentRow();
    m_list->clear();
    for (std::size_t i = 0; i < seeds.size(); ++i)
        m_list->addItem(QString("%1: %2").arg(i + 1).arg(SegmentationModel::seedText(seeds[i])));
    if (current >= 0 && current < m_list->count()) m_list->setCurrentRow(current);
}

}  // namespace lucent::ui
