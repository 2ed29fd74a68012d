// SPDX-License-Identifier: GPL-3.0-or-later
#include "mathtext.h"

#include <QHash>

namespace dplab {

namespace {

const QHash<QString, QString> &symbols()
{
    static const QHash<QString, QString> table = {
        {QStringLiteral("alpha"), QStringLiteral("α")},    {QStringLiteral("beta"), QStringLiteral("β")},
        {QStringLiteral("gamma"), QStringLiteral("γ")},    {QStringLiteral("delta"), QStringLiteral("δ")},
        {QStringLiteral("epsilon"), QStringLiteral("ε")},  {QStringLiteral("varepsilon"), QStringLiteral("ε")},
        {QStringLiteral("zeta"), QStringLiteral("ζ")},     {QStringLiteral("eta"), QStringLiteral("η")},
        {QStringLiteral("theta"), QStringLiteral("θ")},    {QStringLiteral("vartheta"), QStringLiteral("ϑ")},
        {QStringLiteral("kappa"), QStringLiteral("κ")},    {QStringLiteral("lambda"), QStringLiteral("λ")},
        {QStringLiteral("mu"), QStringLiteral("μ")},       {QStringLiteral("nu"), QStringLiteral("ν")},
        {QStringLiteral("xi"), QStringLiteral("ξ")},       {QStringLiteral("pi"), QStringLiteral("π")},
        {QStringLiteral("rho"), QStringLiteral("ρ")},      {QStringLiteral("sigma"), QStringLiteral("σ")},
        {QStringLiteral("tau"), QStringLiteral("τ")},      {QStringLiteral("phi"), QStringLiteral("φ")},
        {QStringLiteral("varphi"), QStringLiteral("φ")},   {QStringLiteral("chi"), QStringLiteral("χ")},
        {QStringLiteral("psi"), QStringLiteral("ψ")},      {QStringLiteral("omega"), QStringLiteral("ω")},
        {QStringLiteral("Gamma"), QStringLiteral("Γ")},    {QStringLiteral("Delta"), QStringLiteral("Δ")},
        {QStringLiteral("Theta"), QStringLiteral("Θ")},    {QStringLiteral("Lambda"), QStringLiteral("Λ")},
        {QStringLiteral("Pi"), QStringLiteral("Π")},       {QStringLiteral("Sigma"), QStringLiteral("Σ")},
        {QStringLiteral("Phi"), QStringLiteral("Φ")},      {QStringLiteral("Psi"), QStringLiteral("Ψ")},
        {QStringLiteral("Omega"), QStringLiteral("Ω")},    {QStringLiteral("sum"), QStringLiteral("Σ")},
        {QStringLiteral("prod"), QStringLiteral("Π")},     {QStringLiteral("cdot"), QStringLiteral("·")},
        {QStringLiteral("times"), QStringLiteral("×")},    {QStringLiteral("pm"), QStringLiteral("±")},
        {QStringLiteral("le"), QStringLiteral("≤")},       {QStringLiteral("leq"), QStringLiteral("≤")},
        {QStringLiteral("ge"), QStringLiteral("≥")},       {QStringLiteral("geq"), QStringLiteral("≥")},
        {QStringLiteral("ne"), QStringLiteral("≠")},       {QStringLiteral("neq"), QStringLiteral("≠")},
        {QStringLiteral("approx"), QStringLiteral("≈")},   {QStringLiteral("sim"), QStringLiteral("∼")},
        {QStringLiteral("propto"), QStringLiteral("∝")},   {QStringLiteral("infty"), QStringLiteral("∞")},
        {QStringLiteral("nabla"), QStringLiteral("∇")},    {QStringLiteral("partial"), QStringLiteral("∂")},
        {QStringLiteral("in"), QStringLiteral("∈")},       {QStringLiteral("to"), QStringLiteral("→")},
        {QStringLiteral("rightarrow"), QStringLiteral("→")}, {QStringLiteral("leftarrow"), QStringLiteral("←")},
        {QStringLiteral("top"), QStringLiteral("ᵀ")},      {QStringLiteral("ell"), QStringLiteral("ℓ")},
        {QStringLiteral("|"), QStringLiteral("‖")},        {QStringLiteral("Vert"), QStringLiteral("‖")},
        {QStringLiteral("log"), QStringLiteral("log")},    {QStringLiteral("ln"), QStringLiteral("ln")},
        {QStringLiteral("exp"), QStringLiteral("exp")},    {QStringLiteral("max"), QStringLiteral("max")},
        {QStringLiteral("min"), QStringLiteral("min")},    {QStringLiteral("quad"), QStringLiteral("  ")},
        {QStringLiteral(","), QStringLiteral(" ")},        {QStringLiteral(";"), QStringLiteral(" ")},
        {QStringLiteral("left"), QString()},               {QStringLiteral("right"), QString()},
        {QStringLiteral("{"), QStringLiteral("{")},        {QStringLiteral("}"), QStringLiteral("}")},
        {QStringLiteral("mathbb{R}"), QStringLiteral("ℝ")},
    };
    return table;
}

class Converter
{
public:
    explicit Converter(const QString &text)
        : mText(text)
    {
    }

    QString run() { return until(QChar()); }

private:
    // Converts up to (not including) `end` (a null QChar: the end of the text).
    QString until(QChar end)
    {
        QString out;
        while (mPos < mText.size()) {
            const QChar c = mText[mPos];
            if (!end.isNull() && c == end)
                break;
            if (c == QLatin1Char('$')) {
                ++mPos;
                continue;
            }
            if (c == QLatin1Char('\\')) {
                out += command();
                mAfterCommand = true; // \alpha_i: a script on the symbol
                continue;
            }
            const bool afterCommand = mAfterCommand;
            mAfterCommand = false;
            if ((c == QLatin1Char('^') || c == QLatin1Char('_')) && (isScript(c) || (afterCommand && hasScriptArgument()))) {
                ++mPos;
                const QString body = argument();
                out += c == QLatin1Char('^') ? QStringLiteral("<sup>%1</sup>").arg(body)
                                             : QStringLiteral("<sub>%1</sub>").arg(body);
                continue;
            }
            if (c == QLatin1Char('{')) { // a bare group: its content
                ++mPos;
                out += until(QLatin1Char('}'));
                if (mPos < mText.size())
                    ++mPos;
                continue;
            }
            out += escaped(c);
            ++mPos;
        }
        return out;
    }

    bool hasScriptArgument() const
    {
        if (mPos + 1 >= mText.size())
            return false;
        const QChar next = mText[mPos + 1];
        return next == QLatin1Char('{') || next.isLetterOrNumber() || next == QChar(0x2212) || next == QLatin1Char('-')
               || next == QLatin1Char('\\');
    }

    // `^`/`_` starts a script after a single-letter symbol, a digit, a closing bracket or a
    // script, and when a brace or a word follows; inside an identifier (`record_every`) it is text.
    bool isScript(QChar c) const
    {
        if (mPos + 1 >= mText.size())
            return false;
        const QChar next = mText[mPos + 1];
        if (next != QLatin1Char('{') && !next.isLetterOrNumber() && next != QChar(0x2212) && next != QLatin1Char('-')
            && next != QLatin1Char('\\'))
            return false;
        if (mPos == 0)
            return false;
        const QChar before = mText[mPos - 1];
        if (before == QLatin1Char(')') || before == QLatin1Char('}') || before == QLatin1Char(']')
            || before == QChar(0x2016) || before == QLatin1Char('|'))
            return true;
        // A symbol already carrying a script, a prime or an accent: s⁺_i, x′_k, W²_t, x̂_j, ζ̃_3.
        const char16_t u = before.unicode();
        if ((u >= 0x2070 && u <= 0x209F) || u == 0x00B2 || u == 0x00B3 || u == 0x00B9 || u == 0x2032 || u == 0x2033
            || before.isMark())
            return true;
        if (!before.isLetterOrNumber())
            return false;
        if (c == QLatin1Char('^') && before.isLetterOrNumber())
            return true;
        // `_`: a subscript when the base is one symbol (x_i, σ₂_k, Z_t, αγ_0: Greek letters are
        // symbols, each its own), not inside a Latin word (record_every).
        auto latin = [](QChar ch) { return ch.isLetter() && ch.unicode() < 0x0250; };
        const bool wordBefore = mPos >= 2 && latin(mText[mPos - 2]) && latin(before);
        return !wordBefore;
    }

    // The argument of ^ or _: a braced group, a command, a signed number or a word.
    QString argument()
    {
        if (mPos >= mText.size())
            return QString();
        const QChar c = mText[mPos];
        if (c == QLatin1Char('{')) {
            ++mPos;
            const QString body = until(QLatin1Char('}'));
            if (mPos < mText.size())
                ++mPos;
            return body;
        }
        if (c == QLatin1Char('\\'))
            return command();
        QString out;
        if (c == QLatin1Char('-') || c == QChar(0x2212)) {
            out += QChar(0x2212);
            ++mPos;
        }
        while (mPos < mText.size() && mText[mPos].isLetterOrNumber())
            out += escaped(mText[mPos++]);
        return out;
    }

    QString command()
    {
        ++mPos; // the backslash
        if (mPos >= mText.size())
            return QStringLiteral("\\");
        QString name;
        if (!mText[mPos].isLetter()) {
            name = mText[mPos++];
        } else {
            while (mPos < mText.size() && mText[mPos].isLetter())
                name += mText[mPos++];
        }
        if (name == QLatin1String("frac")) {
            const QString a = group();
            const QString b = group();
            return QStringLiteral("%1/%2").arg(wrap(a), wrap(b));
        }
        if (name == QLatin1String("sqrt"))
            return QStringLiteral("√(%1)").arg(group());
        if (name == QLatin1String("text") || name == QLatin1String("mathrm") || name == QLatin1String("operatorname")
            || name == QLatin1String("mathbf") || name == QLatin1String("boldsymbol"))
            return group();
        if (name == QLatin1String("mathbb")) {
            const QString arg = group();
            if (arg == QLatin1String("R"))
                return QStringLiteral("ℝ");
            if (arg == QLatin1String("E"))
                return QStringLiteral("𝔼");
            if (arg == QLatin1String("N"))
                return QStringLiteral("ℕ");
            return arg;
        }
        if (name == QLatin1String("mathcal")) {
            const QString arg = group();
            if (arg == QLatin1String("N"))
                return QStringLiteral("𝒩");
            if (arg == QLatin1String("O"))
                return QStringLiteral("𝒪");
            return arg;
        }
        const auto it = symbols().constFind(name);
        if (it != symbols().constEnd())
            return it.value();
        return escaped(QLatin1Char('\\')) + name.toHtmlEscaped(); // unknown: as written
    }

    // A braced argument `{…}` converted, or the next single character.
    QString group()
    {
        while (mPos < mText.size() && mText[mPos] == QLatin1Char(' '))
            ++mPos;
        if (mPos >= mText.size())
            return QString();
        if (mText[mPos] == QLatin1Char('{')) {
            ++mPos;
            const QString body = until(QLatin1Char('}'));
            if (mPos < mText.size())
                ++mPos;
            return body;
        }
        return escaped(mText[mPos++]);
    }

    static QString wrap(const QString &s)
    {
        // Parenthesise compound numerators and denominators: (a+b)/(c).
        for (QChar c : s)
            if (c == QLatin1Char('+') || c == QLatin1Char('-') || c == QChar(0x2212) || c == QLatin1Char(' '))
                return QStringLiteral("(%1)").arg(s);
        return s;
    }

    static QString escaped(QChar c)
    {
        switch (c.unicode()) {
        case '<':
            return QStringLiteral("&lt;");
        case '>':
            return QStringLiteral("&gt;");
        case '&':
            return QStringLiteral("&amp;");
        case '"':
            return QStringLiteral("&quot;");
        default:
            return QString(c);
        }
    }

    const QString &mText;
    qsizetype mPos = 0;
    bool mAfterCommand = false;
};

} // namespace

QString mathToHtml(const QString &text)
{
    return Converter(text).run();
}

QString mathToRichText(const QString &text)
{
    return QStringLiteral("<p>%1</p>").arg(mathToHtml(text));
}

} // namespace dplab
