// SPDX-License-Identifier: GPL-3.0-or-later
//
// ExperimentSettingsWidget: the experiment-wide settings of the experiment panel — name, seed,
// iterations, repetitions and recording interval — edited through the document (one undo step
// each) and re-read from it by refresh().
//
// Threading: GUI thread.
#pragma once

#include <QGroupBox>

class QLineEdit;
class QSpinBox;

namespace dplab {

class ExperimentDocument;

class ExperimentSettingsWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit ExperimentSettingsWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    /** Shows the document's values (without writing back). */
    void refresh();

private:
    ExperimentDocument *mDocument;
    bool mRefreshing = false;
    QLineEdit *mName;
    QLineEdit *mSeed;
    QSpinBox *mIterations;
    QSpinBox *mRepetitions;
    QSpinBox *mRecordEvery;
};

} // namespace dplab
