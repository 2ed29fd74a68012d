// SPDX-License-Identifier: GPL-3.0-or-later
#include "epsilontext.h"
#include "textconvert.h"

#include <QCoreApplication>

#include <cmath>

namespace dplab {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("EpsilonText", text);
}

QString number(double epsilon)
{
    if (std::isinf(epsilon))
        return QStringLiteral("∞");
    return numberText(epsilon, epsilon >= 1e4 ? 2 : 3);
}

} // namespace

bool isVacuousEpsilon(double epsilon)
{
    return !std::isnan(epsilon) && epsilon >= kVacuousEpsilon;
}

QString epsilonStatusText(double epsilon)
{
    if (std::isnan(epsilon))
        return tr("ε —");
    if (isVacuousEpsilon(epsilon))
        return tr("ε %1 (max) ⚠ vacuous").arg(number(epsilon));
    return tr("ε %1 (max)").arg(number(epsilon));
}

QString epsilonExplanation(double epsilon, const QString &accountants)
{
    QString html = tr("<p><b>Cumulative privacy loss ε</b>: the largest over runs and agents of what each "
                      "agent's accountant certifies for all the messages it has sent so far. δ = 0 (pure "
                      "ε-differential privacy, Laplace noise). Smaller is more private: one person's data "
                      "changes the odds of anything an observer sees by at most a factor e<sup>ε</sup>.</p>");
    if (!accountants.isEmpty())
        html += tr("<p>Accountant: %1.</p>").arg(accountants.toHtmlEscaped());
    if (isVacuousEpsilon(epsilon))
        html += tr("<p><b>⚠ Vacuous bound.</b> ε = %1 allows the odds to change by e<sup>%1</sup>: "
                   "mathematically true, but no protection at all. Such numbers appear when the noise "
                   "is small for the number of messages, when it decays faster than the accountant "
                   "allows (a bound growing like q<sup>−K</sup>), or when a budget this large was "
                   "chosen to show convergence. Set a target ε, more noise or fewer iterations for a "
                   "meaningful guarantee.</p>")
                    .arg(number(epsilon));
    return html;
}

QString vacuousEpsilonNote(double epsilon)
{
    if (!isVacuousEpsilon(epsilon))
        return QString();
    return tr("⚠ ε = %1 is a vacuous bound: no meaningful privacy (hover for why)").arg(number(epsilon));
}

} // namespace dplab
