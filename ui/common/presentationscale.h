// SPDX-License-Identifier: GPL-3.0-or-later
//
// PresentationScale: View ▸ Presentation Size — one factor that scales, together, the window's
// fonts, the graph's node and edge labels and line widths, and the plots' tick labels, axis
// labels, legends and curve widths, so a lecture hall can read the lab from the back row. The
// factor persists in QSettings ("view/presentationScale").
//
// Threading: GUI thread.
#pragma once

#include <QFont>
#include <QObject>

class QCustomPlot;

namespace dplab {

class PresentationScale : public QObject
{
    Q_OBJECT

public:
    /** The one instance (created on first use, parented to the application). */
    static PresentationScale *instance();
    /** The current factor (1 = normal). */
    static double factor();
    /** `value` × factor(). */
    static double scaled(double value) { return value * factor(); }

    /** Sets the factor (clamped to [0.75, 3]), rescales the application font, saves it (unless
     *  `persist` is false) and emits changed(). */
    void setFactor(double factor, bool persist = true);
    /** Applies the saved factor (at start-up). */
    void restore();

    /** Keeps `plot`'s tick labels, axis labels, legend, text elements and pens at the
     *  presentation size (applied before every replot). */
    static void follow(QCustomPlot *plot);

signals:
    void changed(double factor);

private:
    explicit PresentationScale(QObject *parent);
    double mFactor = 1.0;
    QFont mBaseFont;
    bool mHaveBaseFont = false;
};

} // namespace dplab
