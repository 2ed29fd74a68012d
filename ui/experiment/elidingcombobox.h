// SPDX-License-Identifier: GPL-3.0-or-later
//
// ElidingComboBox: a combo box of the experiment panel whose choice may be wider than the dock
// ("Nonconvex logistic regression (paper 001, eq. 37)" at 1280×720). Where the whole choice does
// not fit, the box shows it shortened — first without its trailing parenthesis (the paper
// reference), then cut at the right with "…" — instead of clipping it mid-letter; its tooltip
// then gives the whole choice. The popup lists every choice in full (QComboBox widens it to the
// widest one). Editable boxes are drawn as usual.
//
// Threading: GUI thread.
#pragma once

#include <QComboBox>

class QFontMetrics;

namespace dplab {

class ElidingComboBox : public QComboBox
{
    Q_OBJECT

public:
    explicit ElidingComboBox(QWidget *parent = nullptr);

    /** `text` as it fits into `width` pixels of `metrics`: whole, else without a trailing
     *  " (…)", else that cut at the right with "…". */
    static QString shortened(const QString &text, const QFontMetrics &metrics, int width);

    /** What the box shows of its current choice at its present width. */
    QString displayedText() const;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    /** The width of the text field (frame, arrow and icon taken off). */
    int textWidth() const;
};

} // namespace dplab
