// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresentationController: presentation settings live in the experiment file — hidden panels,
// locked and hidden parameters and lesson notes are applied in presentation mode, written back
// into the document and survive save / open.
#include "experimentdocument.h"
#include "paramform.h"
#include "presentationcontroller.h"
#include "problemwidget.h"
#include "teachingpanel.h"

#include "dplab/algo/algorithm.h"
#include "dplab/common/files.h"

#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace dplab;

class TestPresentationController : public QObject
{
    Q_OBJECT

private slots:
    void appliesAndPersists();
    void locksTheProblemsDataFields();
};

void TestPresentationController::appliesAndPersists()
{
    const QString dir = QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets");
    ExperimentDocument document;
    QString error;
    QVERIFY2(document.loadFile(dir + QStringLiteral("/teaching-noise-accumulation.json"), &error), qPrintable(error));

    QWidget window;
    auto *panel = new TeachingPanel(&window);
    auto *form = new ParamForm(&window);
    form->setSpecs(findAlgorithm("ldp-gt")->privacyParams);
    form->setProperty("dplabJsonPath", QStringLiteral("runs[1].privacy"));
    auto *graphDock = new QWidget(&window);
    window.show();

    PresentationController controller;
    controller.setDocument(&document);
    controller.setTeachingPanel(panel);
    controller.setFormRoot(&window);
    controller.registerPanel(QStringLiteral("graph"), graphDock);

    // The preset's settings: attack and frontier hidden, the decays locked, notes present.
    const Presentation p = controller.presentation();
    QVERIFY(p.isPanelHidden("attack"));
    QVERIFY(!p.notes.empty());
    QVERIFY(panel->notes().contains(QStringLiteral("eq. 6")));
    QVERIFY(panel->tabs()->indexOf(panel->panel(QStringLiteral("attack"))) >= 0); // not hidden outside presentation mode
    QVERIFY(form->editor(QStringLiteral("noise_y_decay"))->isEnabled());

    controller.setActive(true);
    QCOMPARE(panel->tabs()->indexOf(panel->panel(QStringLiteral("attack"))), -1);
    QCOMPARE(panel->tabs()->indexOf(panel->panel(QStringLiteral("frontier"))), -1);
    QVERIFY(panel->tabs()->indexOf(panel->panel(QStringLiteral("notes"))) >= 0);
    QVERIFY(!form->editor(QStringLiteral("noise_y_decay"))->isEnabled());
    QVERIFY(!form->editor(QStringLiteral("noise_theta_decay"))->isEnabled());
    QVERIFY(form->editor(QStringLiteral("noise_y"))->isEnabled());

    // New settings: hide the graph panel and a parameter, lock another, new notes.
    Presentation q = p;
    q.hiddenPanels = {"graph", "theory"};
    q.locked = {"runs[1].privacy.noise_y"};
    q.hiddenParams = {"runs[*].privacy.accountant"};
    q.notes = "## New lesson\nText.";
    q.start = true;
    controller.setPresentation(q);
    QVERIFY(!graphDock->isVisible());
    QVERIFY(panel->tabs()->indexOf(panel->panel(QStringLiteral("attack"))) >= 0);
    QCOMPARE(panel->tabs()->indexOf(panel->panel(QStringLiteral("theory"))), -1);
    QVERIFY(!form->editor(QStringLiteral("noise_y"))->isEnabled());
    QVERIFY(form->editor(QStringLiteral("noise_y_decay"))->isEnabled());
    QVERIFY(form->editor(QStringLiteral("accountant"))->isHidden());
    QCOMPARE(panel->notes(), QStringLiteral("## New lesson\nText."));
    QVERIFY(document.isModified());

    // Leaving presentation mode shows everything again.
    controller.setActive(false);
    QVERIFY(graphDock->isVisible());
    QVERIFY(form->editor(QStringLiteral("noise_y"))->isEnabled());
    QVERIFY(!form->editor(QStringLiteral("accountant"))->isHidden());

    // Saved with the experiment, read back by core and by a new document.
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("lesson.json"));
    QVERIFY2(document.save(path, &error), qPrintable(error));
    auto reread = loadExperimentFile(path.toStdString());
    QVERIFY2(reread.ok(), reread.ok() ? "" : reread.error().toString().c_str());
    QVERIFY(reread->presentation.has_value());
    QVERIFY(*reread->presentation == q);
    ExperimentDocument again;
    QVERIFY(again.loadFile(path, &error));
    PresentationController second;
    second.setDocument(&again);
    QVERIFY(second.presentation() == q);
    // "start": opening the file switches presentation mode on.
    QVERIFY(!second.isActive());
    QVERIFY(again.loadFile(path, &error));
    QVERIFY(second.isActive());
}

void TestPresentationController::locksTheProblemsDataFields()
{
    // The problem's nested fields ("data.name", in their own collapsible form) are lockable by
    // their JSON path like any run parameter.
    const QString dir = QStringLiteral(DPLAB_TEST_SOURCE_DIR "/resources/presets");
    ExperimentDocument document;
    QString error;
    QVERIFY2(document.loadFile(dir + QStringLiteral("/teaching-gradient-tracking-logistic.json"), &error),
             qPrintable(error));
    QWidget window;
    auto *problem = new ProblemWidget(&document, &window);
    problem->refresh();
    window.show();
    PresentationController controller;
    controller.setDocument(&document);
    controller.setFormRoot(&window);
    Presentation p = controller.presentation();
    p.locked = {"problem.data.name", "problem.lambda"};
    controller.setPresentation(p);
    controller.setActive(true);
    QWidget *name = nullptr, *lambda = nullptr, *source = nullptr;
    for (ParamForm *form : window.findChildren<ParamForm *>()) {
        if (QWidget *e = form->editor(QStringLiteral("data.name")))
            name = e;
        if (QWidget *e = form->editor(QStringLiteral("data.source")))
            source = e;
        if (QWidget *e = form->editor(QStringLiteral("lambda")))
            lambda = e;
    }
    QVERIFY(name && lambda && source);
    QVERIFY(!name->isEnabled());
    QVERIFY(!lambda->isEnabled());
    QVERIFY(source->isEnabled());
    // A path to an object locks everything under it.
    p.locked = {"problem.data"};
    controller.setPresentation(p);
    QVERIFY(!name->isEnabled());
    QVERIFY(!source->isEnabled());
    QVERIFY(lambda->isEnabled());
    controller.setActive(false);
    QVERIFY(name->isEnabled());
    QVERIFY(source->isEnabled());
}

QTEST_MAIN(TestPresentationController)
#include "tst_presentationcontroller.moc"
