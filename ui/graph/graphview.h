// SPDX-License-Identifier: GPL-3.0-or-later
//
// GraphView: the QGraphicsView of the graph editor. Wheel zooms about the cursor (clamped, as in
// Elastic Nodes), the middle button pans, Delete removes the selection, and fitGraph() frames
// the whole graph. Edits never re-fit: only fitGraph() does (Fit Graph, opening a file,
// generate, import, layouts); until the user zooms or pans, resizes keep that frame.
//
// Threading: GUI thread.
#pragma once

#include <QGraphicsView>

class QLabel;
class QMimeData;

namespace dplab {

class GraphScene;

class GraphView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit GraphView(GraphScene *scene, QWidget *parent = nullptr);

    /** Current zoom (1 = 100 %). */
    qreal zoom() const;

    /** Whether `mime` carries an experiment file (a local .json) the canvas accepts. */
    static bool isExperimentDrop(const QMimeData *mime);

signals:
    /** An experiment file was dropped on the canvas. */
    void experimentDropped(const QString &path);

public slots:
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void fitGraph();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void scaleBy(qreal factor);
    void fitRect(const QRectF &bounds);
    void updateDenseNote();
    void updateNodeScale();

    GraphScene *mScene;
    bool mPanning = false;
    bool mAutoFit = true; ///< keep mFitRect framed on resizes until the user zooms or pans
    QRectF mFitRect;      ///< what the last fitGraph() framed (null: never fitted)
    QPoint mPanStart;
    QLabel *mDenseNote; ///< "150 012 edges: 40 000 drawn …" on dense graphs
};

} // namespace dplab
