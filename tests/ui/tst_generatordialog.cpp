// SPDX-License-Identifier: GPL-3.0-or-later
//
// GeneratorDialog: every core generator can be chosen, its form builds, its defaults generate
// a graph, and setSpec() / spec() round-trip.
#include "generatordialog.h"
#include "paramform.h"

#include "dplab/graph/generators.h"

#include <QComboBox>
#include "uitest.h"

#include <QTest>

using namespace dplab;

class TestGeneratorDialog : public QObject
{
    Q_OBJECT

private slots:
    void everyGeneratorWithDefaults();
    void specRoundTrip();
};

void TestGeneratorDialog::everyGeneratorWithDefaults()
{
    GeneratorDialog dialog;
    QCOMPARE(dialog.typeBox()->count(), int(generatorDescriptors().size()));
    for (int i = 0; i < dialog.typeBox()->count(); ++i) {
        dialog.typeBox()->setCurrentIndex(i);
        const Json spec = dialog.spec();
        QCOMPARE(QString::fromStdString(spec.at("type").get<std::string>()), dialog.typeBox()->itemData(i).toString());
        auto g = generateGraph(spec, "g");
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().toString().c_str());
        QCOMPARE(dialog.graph().nodeCount(), g->nodeCount());
        QVERIFY(dialog.graph() == *g);
    }
}

void TestGeneratorDialog::specRoundTrip()
{
    GeneratorDialog dialog;
    const Json ring{{"type", "ring"}, {"nodes", 12}};
    dialog.setSpec(ring);
    QCOMPARE(dialog.spec().at("nodes").get<int>(), 12);
    QCOMPARE(dialog.graph().nodeCount(), 12);
    QCOMPARE(dialog.graph().edgeCount(), std::size_t(12));
}

QTEST_MAIN(TestGeneratorDialog)
#include "tst_generatordialog.moc"
