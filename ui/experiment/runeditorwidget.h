// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunEditorWidget: the selected run in the experiment panel — its algorithm (those that do not
// fit the graph or problem disabled, with the reason), the algorithm's explanation, parameter
// and privacy forms generated from its descriptor, compressor, initial point, and the theorem
// conditions the run's parameters violate (allowed, with a visible warning).
//
// Threading: GUI thread.
#pragma once

#include <QGroupBox>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace dplab {

class ExperimentDocument;
class ParamForm;
class Problem;
struct Experiment;

class RunEditorWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit RunEditorWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    /** Edits run `run` (−1: none). */
    void setRun(int run);
    int run() const { return mRun; }
    /** Shows the document's values for the run (without writing back). */
    void refresh();
    /** The last experiment that validated (warnings and the problem kind come from it), or null. */
    void setValidated(std::shared_ptr<const Experiment> experiment);
    /** The theorem-condition warnings shown. */
    QString warningText() const;

    QComboBox *algorithmBox() const { return mAlgorithm; }
    ParamForm *paramsForm() const { return mParams; }
    ParamForm *privacyForm() const { return mPrivacy; }
    QComboBox *compressorBox() const { return mCompressor; }
    ParamForm *compressorForm() const { return mCompressorParams; }

private:
    void updateWarnings();
    std::string runPointer(const char *suffix) const;

    ExperimentDocument *mDocument;
    int mRun = -1;
    bool mRefreshing = false;
    std::shared_ptr<const Experiment> mValidated;
    std::shared_ptr<const Problem> mValidatedProblem; ///< of the last successful validation
    QString mFormAlgorithm;  ///< algorithm the param forms are built for
    QString mFormCompressor; ///< compressor type the compressor form is built for
    QComboBox *mAlgorithm;
    QLabel *mAlgorithmInfo;
    ParamForm *mParams;
    QGroupBox *mPrivacyBox;
    ParamForm *mPrivacy;
    QComboBox *mCompressor;
    ParamForm *mCompressorParams;
    QComboBox *mInit;
    QDoubleSpinBox *mInitScale;
    QLabel *mWarnings;
};

} // namespace dplab
