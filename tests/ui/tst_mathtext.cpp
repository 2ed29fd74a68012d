// SPDX-License-Identifier: GPL-3.0-or-later
//
// mathToHtml: the LaTeX of descriptor texts as HTML — scripts, commands, fractions and roots —
// with identifiers left alone; and every algorithm's explanation renders without raw LaTeX.
#include "mathtext.h"

#include "dplab/algo/algorithm.h"

#include <QTest>

using namespace dplab;

class TestMathText : public QObject
{
    Q_OBJECT

private slots:
    void converts_data();
    void converts();
    void noRawLatexInDescriptors();
};

void TestMathText::converts_data()
{
    QTest::addColumn<QString>("tex");
    QTest::addColumn<QString>("html");
    QTest::newRow("superscript group") << QStringLiteral("H^{k+1}") << QStringLiteral("H<sup>k+1</sup>");
    QTest::newRow("sub and sup") << QStringLiteral("Z_t^{-1}") << QStringLiteral("Z<sub>t</sub><sup>-1</sup>");
    QTest::newRow("single letter") << QStringLiteral("σ₂^k") << QStringLiteral("σ₂<sup>k</sup>");
    QTest::newRow("word subscript") << QStringLiteral("R_diag θ") << QStringLiteral("R<sub>diag</sub> θ");
    QTest::newRow("identifier") << QStringLiteral("record_every and rho_wo")
                                << QStringLiteral("record_every and rho_wo");
    QTest::newRow("greek") << QStringLiteral("$\\alpha_i \\le \\epsilon$") << QStringLiteral("α<sub>i</sub> ≤ ε");
    QTest::newRow("frac") << QStringLiteral("\\frac{1}{1+\\theta}") << QStringLiteral("1/(1+θ)");
    QTest::newRow("sqrt") << QStringLiteral("\\sqrt{1 - \\sigma_2^2}") << QStringLiteral("√(1 - σ<sub>2</sub><sup>2</sup>)");
    QTest::newRow("norm") << QStringLiteral("\\|x\\|^2") << QStringLiteral("‖x‖<sup>2</sup>");
    QTest::newRow("escaped") << QStringLiteral("a < b & c") << QStringLiteral("a &lt; b &amp; c");
    QTest::newRow("unknown command kept") << QStringLiteral("\\foo x") << QStringLiteral("\\foo x");
    QTest::newRow("negative power") << QStringLiteral("q^{−K}") << QStringLiteral("q<sup>−K</sup>");
}

void TestMathText::converts()
{
    QFETCH(QString, tex);
    QFETCH(QString, html);
    QCOMPARE(mathToHtml(tex), html);
}

void TestMathText::noRawLatexInDescriptors()
{
    for (const AlgorithmDescriptor &d : algorithmRegistry()) {
        const QString html = mathToHtml(QString::fromStdString(d.explanation));
        QVERIFY2(!html.contains(QLatin1String("^{")) && !html.contains(QLatin1String("_{")),
                 qPrintable(QString::fromStdString(d.id) + QStringLiteral(": ") + html));
    }
}

QTEST_MAIN(TestMathText)
#include "tst_mathtext.moc"
