// SPDX-License-Identifier: GPL-3.0-or-later
//
// mathToHtml: the LaTeX of descriptor texts as HTML — scripts, commands, fractions and roots —
// with identifiers left alone; and every algorithm's explanation renders without raw LaTeX.
#include "mathtext.h"

#include "dplab/algo/algorithm.h"

#include <QRegularExpression>
#include <QTest>

using namespace dplab;

class TestMathText : public QObject
{
    Q_OBJECT

private slots:
    void converts_data();
    void converts();
    void noRawLatexInDescriptors();
    void noStrayUnderscoresInDescriptors();
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
    // The help printed "(s⁺_i − s_i)" and "αγ_0" with their underscores.
    QTest::newRow("after a superscript") << QStringLiteral("(s⁺_i − s_i)") << QStringLiteral("(s⁺<sub>i</sub> − s<sub>i</sub>)");
    QTest::newRow("greek product") << QStringLiteral("αγ_0 < 2") << QStringLiteral("αγ<sub>0</sub> &lt; 2");
    QTest::newRow("prime") << QStringLiteral("x′_k") << QStringLiteral("x′<sub>k</sub>");
    QTest::newRow("accent") << QStringLiteral("(x̂_j − x̂_i), ζ̃_3") << QStringLiteral("(x̂<sub>j</sub> − x̂<sub>i</sub>), ζ̃<sub>3</sub>");
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

void TestMathText::noStrayUnderscoresInDescriptors()
{
    // Every explanation, help text and theorem condition renders without an underscore except
    // inside a Latin identifier (record_every, noise_x).
    static const QRegularExpression stray(QStringLiteral("(^|[^A-Za-z0-9])_|[^A-Za-z]_[^A-Za-z]"));
    auto check = [](const std::string &id, const std::string &text) {
        const QString html = mathToHtml(QString::fromStdString(text));
        const auto match = stray.match(html);
        QVERIFY2(!match.hasMatch(), qPrintable(QString::fromStdString(id) + QStringLiteral(": ") + html));
    };
    for (const AlgorithmDescriptor &d : algorithmRegistry()) {
        check(d.id, d.explanation);
        for (const auto *specs : {&d.params, &d.privacyParams})
            for (const ParamSpec &p : *specs) {
                check(d.id + "." + p.key, p.help);
                check(d.id + "." + p.key, p.condition);
            }
    }
}

QTEST_MAIN(TestMathText)
#include "tst_mathtext.moc"
