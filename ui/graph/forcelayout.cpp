// SPDX-License-Identifier: GPL-3.0-or-later
#include "forcelayout.h"

#include "dplab/graph/generators.h"

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

double radiusOf(const std::vector<NodePosition> &p, double &cx, double &cy)
{
    cx = cy = 0;
    for (const auto &q : p) {
        cx += q.x;
        cy += q.y;
    }
    cx /= static_cast<double>(p.size());
    cy /= static_cast<double>(p.size());
    double r = 0;
    for (const auto &q : p)
        r = std::max(r, std::hypot(q.x - cx, q.y - cy));
    return r;
}

double nearestDistance(const std::vector<NodePosition> &p)
{
    double nearest = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = i + 1; j < p.size(); ++j) {
            const double d = std::hypot(p[i].x - p[j].x, p[i].y - p[j].y);
            if (d > 1e-9 && (nearest == 0 || d < nearest))
                nearest = d;
        }
    return nearest;
}

} // namespace

std::vector<NodePosition> forceDirectedLayout(const Graph &graph, std::vector<NodePosition> start, int iterations)
{
    const int n = graph.nodeCount();
    if (n == 0)
        return {};
    if (static_cast<int>(start.size()) != n)
        start = circularLayout(n);
    if (n == 1)
        return start;
    double cx = 0, cy = 0;
    double radius = radiusOf(start, cx, cy);
    const double startNearest = nearestDistance(start);
    if (radius < 1e-9) {
        start = circularLayout(n);
        radius = radiusOf(start, cx, cy);
    }
    // Work in a unit box; nodes that coincide get nudged apart along a fixed small circle.
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (start[i].x - cx) / radius;
        y[i] = (start[i].y - cy) / radius;
    }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (std::hypot(x[i] - x[j], y[i] - y[j]) < 1e-9) {
                const double a = 2 * M_PI * j / n;
                x[j] += 0.01 * std::cos(a);
                y[j] += 0.01 * std::sin(a);
            }
    const double k = std::sqrt(4.0 / n); // ideal edge length in a 2×2 box
    double temperature = 0.2;
    const double cooling = std::pow(0.005 / temperature, 1.0 / std::max(1, iterations));
    std::vector<double> dx(n), dy(n);
    for (int it = 0; it < iterations; ++it) {
        std::fill(dx.begin(), dx.end(), 0.0);
        std::fill(dy.begin(), dy.end(), 0.0);
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                double ex = x[i] - x[j], ey = y[i] - y[j];
                double d = std::hypot(ex, ey);
                if (d < 1e-6) {
                    ex = 1e-3 * (i - j);
                    ey = 1e-3;
                    d = std::hypot(ex, ey);
                }
                const double f = k * k / d; // repulsion
                dx[i] += ex / d * f;
                dy[i] += ey / d * f;
                dx[j] -= ex / d * f;
                dy[j] -= ey / d * f;
            }
        for (const Edge &e : graph.edges()) {
            const double ex = x[e.from] - x[e.to], ey = y[e.from] - y[e.to];
            const double d = std::max(std::hypot(ex, ey), 1e-6);
            const double f = d * d / k; // attraction
            dx[e.from] -= ex / d * f;
            dy[e.from] -= ey / d * f;
            dx[e.to] += ex / d * f;
            dy[e.to] += ey / d * f;
        }
        for (int i = 0; i < n; ++i) {
            // gravity keeps disconnected pieces on screen
            dx[i] -= 0.05 * x[i] * k;
            dy[i] -= 0.05 * y[i] * k;
            const double d = std::hypot(dx[i], dy[i]);
            if (d > 0) {
                const double step = std::min(d, temperature);
                x[i] += dx[i] / d * step;
                y[i] += dy[i] / d * step;
            }
        }
        temperature *= cooling;
    }
    // Fruchterman–Reingold leaves nodes of dense parts (hubs, cliques) almost on top of each
    // other: push every pair apart to at least half the ideal edge length.
    const double separation = 0.5 * k;
    for (int pass = 0; pass < 100; ++pass) {
        bool moved = false;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                double ex = x[i] - x[j], ey = y[i] - y[j];
                double d = std::hypot(ex, ey);
                if (d >= separation)
                    continue;
                if (d < 1e-9) {
                    const double a = 2 * M_PI * (i + 1) / (n + 1);
                    ex = std::cos(a);
                    ey = std::sin(a);
                    d = 1.0;
                    x[i] += 1e-6 * ex;
                }
                const double push = (separation - std::hypot(x[i] - x[j], y[i] - y[j])) / 2 + 1e-9;
                x[i] += ex / d * push;
                y[i] += ey / d * push;
                x[j] -= ex / d * push;
                y[j] -= ey / d * push;
                moved = true;
            }
        if (!moved)
            break;
    }
    std::vector<NodePosition> out(n);
    for (int i = 0; i < n; ++i)
        out[i] = {x[i], y[i]};
    double ox = 0, oy = 0;
    const double r = radiusOf(out, ox, oy);
    double scale = r > 1e-12 ? radius / r : 1.0;
    // Never closer than the closest pair of the start: the drawing grows instead.
    const double nearest = nearestDistance(out);
    if (startNearest > 0 && nearest > 0 && nearest * scale < startNearest)
        scale = startNearest / nearest;
    for (auto &p : out)
        p = {cx + (p.x - ox) * scale, cy + (p.y - oy) * scale};
    return out;
}

} // namespace dplab
