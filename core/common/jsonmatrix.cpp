// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/common/jsonmatrix.h"

namespace dplab {

Json matrixToJson(const Eigen::MatrixXd &m)
{
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        Json row = Json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.push_back(m(i, j));
        rows.push_back(row);
    }
    return rows;
}

Json vectorToJson(const Eigen::VectorXd &v)
{
    Json out = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out.push_back(v[i]);
    return out;
}

} // namespace dplab
