//===- kernels_reduce.cpp - Reductions and normalisations -----------------===//
//
// sum, mean, amax/amin, max/min over a dim, argmax/argmin, softmax,
// log_softmax, layer_norm, rms_norm, group_norm (kernels.h).
//
//===----------------------------------------------------------------------===//
#include "kernels_internal.h"

#include <algorithm>

namespace mssim::nn {

using namespace detail;

namespace {

// Which dims of self a reduction reduces, and what it leaves.
struct Plan {
  std::vector<bool> reduced;      // per dim of self
  std::vector<int64_t> outShape;  // keepdim applied
  std::vector<int64_t> keptShape; // self's dims not reduced
  std::vector<int64_t> keptStrides;
  std::vector<int64_t> redShape, redStrides;
  bool keepdim = false;
};

std::string planReduce(const char *op, const TensorView &self,
                       const std::vector<int64_t> &dims, bool keepdim,
                       bool nonEmpty, Plan *p) {
  size_t nd = self.shape.size();
  p->reduced.assign(nd, dims.empty());
  p->keepdim = keepdim;
  std::vector<bool> seen(std::max<size_t>(nd, 1), false);
  for (int64_t dim : dims) {
    int64_t d;
    std::string e = wrapDim(op, dim, static_cast<int64_t>(nd), &d);
    if (!e.empty())
      return e;
    if (seen[d])
      return msg(op, "dim ", d, " appears multiple times in the list of dims");
    seen[d] = true;
    if (nd)
      p->reduced[d] = true;
  }
  for (size_t d = 0; d < nd; ++d) {
    if (p->reduced[d]) {
      if (nonEmpty && self.shape[d] == 0)
        return msg(op, "expected reduction dim ", d, " to have non-zero size");
      p->redShape.push_back(self.shape[d]);
      p->redStrides.push_back(self.strides[d]);
      if (keepdim)
        p->outShape.push_back(1);
    } else {
      p->keptShape.push_back(self.shape[d]);
      p->keptStrides.push_back(self.strides[d]);
      p->outShape.push_back(self.shape[d]);
    }
  }
  return {};
}

// out's strides along the kept dims.
std::vector<int64_t> keptOutStrides(const Plan &p, const TensorView &out) {
  std::vector<int64_t> s;
  for (size_t d = 0, o = 0; d < p.reduced.size(); ++d) {
    bool kept = !p.reduced[d];
    if (kept)
      s.push_back(out.strides[o]);
    if (kept || p.keepdim)
      ++o;
  }
  return s;
}

// f(selfBase, outOffsets) for every output element.
template <class F>
void forEachOutput(const Plan &p, const TensorView &self,
                   const std::vector<const TensorView *> &outs, F &&f) {
  std::vector<std::vector<int64_t>> strides = {p.keptStrides};
  std::vector<int64_t> start = {self.offset};
  for (const TensorView *o : outs) {
    strides.push_back(keptOutStrides(p, *o));
    start.push_back(o->offset);
  }
  walk(p.keptShape, strides, start,
       [&](const int64_t *off) { f(off[0], off + 1); });
}

// g(selfOffset, i) for the i-th reduced element (row-major) of one output.
template <class G> void forEachReduced(const Plan &p, int64_t base, G &&g) {
  int64_t i = 0;
  walk(p.redShape, {p.redStrides}, {base},
       [&](const int64_t *off) { g(off[0], i++); });
}

std::string checkTwo(const char *op, const char *a, const TensorView &self,
                     const TensorView &out, Mode mode) {
  std::string e;
  if (!(e = checkView(self, (std::string(op) + ": " + a).c_str(), mode))
           .empty())
    return e;
  return checkView(out, (std::string(op) + ": out").c_str(), mode);
}

std::string sumOrMean(Mode mode, bool isMean, const TensorView &self,
                      const std::vector<int64_t> &dims, bool keepdim,
                      const TensorView &out) {
  const char *op = isMean ? "mean" : "sum";
  std::string e = checkTwo(op, "self", self, out, mode);
  if (!e.empty())
    return e;
  if (isMean && !isFloatingDtype(out.dtype))
    return msg(op, "could not infer output dtype: out must be floating, got ",
               dtypeName(out.dtype));
  if (!isMean && !canCast(self.dtype, out.dtype))
    return msg(op, "self of dtype ", dtypeName(self.dtype),
               " can't be summed into ", dtypeName(out.dtype));
  Plan p;
  if (!(e = planReduce(op, self, dims, keepdim, false, &p)).empty() ||
      !(e = expectShape(op, "out", out, p.outShape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  int64_t count = numel(p.redShape);
  bool convert = self.dtype != o.dtype;
  if (isFloatingDtype(o.dtype)) {
    forEachOutput(p, self, {&o}, [&](int64_t base, const int64_t *outOff) {
      double acc = 0;
      forEachReduced(p, base, [&](int64_t off, int64_t) {
        double x = load<double>(self.dtype, at(self, off));
        acc += convert ? roundTo<double>(o.dtype, x) : x;
      });
      if (isMean)
        acc /= static_cast<double>(count);
      store<double>(o.dtype, at(o, outOff[0]), acc);
    });
  } else {
    forEachOutput(p, self, {&o}, [&](int64_t base, const int64_t *outOff) {
      uint64_t acc = 0;
      forEachReduced(p, base, [&](int64_t off, int64_t) {
        int64_t x = load<int64_t>(self.dtype, at(self, off));
        acc +=
            static_cast<uint64_t>(convert ? roundTo<int64_t>(o.dtype, x) : x);
      });
      store<int64_t>(o.dtype, at(o, outOff[0]), static_cast<int64_t>(acc));
    });
  }
  ov.finish();
  return {};
}

// Whether x replaces best as the extreme so far (NaN wins, then stays).
template <class C> bool better(bool isMax, C x, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(best))
      return false;
    if (std::isnan(x))
      return true;
  }
  return isMax ? x > best : x < best;
}

std::string extremes(Mode mode, bool isMax, const TensorView &self,
                     const std::vector<int64_t> &dims, bool keepdim,
                     const TensorView &out) {
  const char *op = isMax ? "amax" : "amin";
  std::string e = checkTwo(op, "self", self, out, mode);
  if (!e.empty())
    return e;
  if (out.dtype != self.dtype)
    return msg(op, "expected out of dtype ", dtypeName(self.dtype), ", got ",
               dtypeName(out.dtype));
  Plan p;
  if (!(e = planReduce(op, self, dims, keepdim, true, &p)).empty() ||
      !(e = expectShape(op, "out", out, p.outShape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  withDomain(self.dtype, [&](auto tag) {
    using C = decltype(tag);
    forEachOutput(p, self, {&o}, [&](int64_t base, const int64_t *outOff) {
      C best{};
      forEachReduced(p, base, [&](int64_t off, int64_t i) {
        C x = load<C>(self.dtype, at(self, off));
        if (i == 0 || better(isMax, x, best))
          best = x;
      });
      store<C>(o.dtype, at(o, outOff[0]), best);
    });
  });
  ov.finish();
  return {};
}

// max/min/argmax/argmin over one dim: values optional.
std::string indexed(Mode mode, const char *op, bool isMax,
                    const TensorView &self, int64_t dim, bool keepdim,
                    const TensorView *values, const TensorView &indices) {
  std::string e = checkTwo(op, "self", self, indices, mode);
  if (!e.empty())
    return e;
  if (values &&
      !(e = checkView(*values, (std::string(op) + ": values").c_str(), mode))
           .empty())
    return e;
  if (values && values->dtype != self.dtype)
    return msg(op, "expected values of dtype ", dtypeName(self.dtype), ", got ",
               dtypeName(values->dtype));
  if (indices.dtype != ACL_INT64 && indices.dtype != ACL_INT32)
    return msg(op, "expected indices of dtype Long or Int, got ",
               dtypeName(indices.dtype));
  Plan p;
  if (!(e = planReduce(op, self, {dim}, keepdim, true, &p)).empty() ||
      !(e = expectShape(op, "indices", indices, p.outShape)).empty() ||
      (values && !(e = expectShape(op, "values", *values, p.outShape)).empty()))
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView oi(indices, {&self});
  TensorView none;
  OutputView ovv(values ? *values : none, {&self});
  std::vector<const TensorView *> outs = {&oi.view()};
  if (values)
    outs.push_back(&ovv.view());
  withDomain(self.dtype, [&](auto tag) {
    using C = decltype(tag);
    forEachOutput(p, self, outs, [&](int64_t base, const int64_t *outOff) {
      C best{};
      int64_t where = 0;
      forEachReduced(p, base, [&](int64_t off, int64_t i) {
        C x = load<C>(self.dtype, at(self, off));
        if (i == 0 || better(isMax, x, best)) {
          best = x;
          where = i;
        }
      });
      store<int64_t>(outs[0]->dtype, at(*outs[0], outOff[0]), where);
      if (values)
        store<C>(outs[1]->dtype, at(*outs[1], outOff[1]), best);
    });
  });
  oi.finish();
  if (values)
    ovv.finish();
  return {};
}

} // namespace

std::string sum(Mode mode, const TensorView &self,
                const std::vector<int64_t> &dims, bool keepdim,
                const TensorView &out) {
  return sumOrMean(mode, false, self, dims, keepdim, out);
}

std::string mean(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out) {
  return sumOrMean(mode, true, self, dims, keepdim, out);
}

std::string amax(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out) {
  return extremes(mode, true, self, dims, keepdim, out);
}

std::string amin(Mode mode, const TensorView &self,
                 const std::vector<int64_t> &dims, bool keepdim,
                 const TensorView &out) {
  return extremes(mode, false, self, dims, keepdim, out);
}

std::string maxDim(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &values, const TensorView &indices) {
  return indexed(mode, "max", true, self, dim, keepdim, &values, indices);
}

std::string minDim(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &values, const TensorView &indices) {
  return indexed(mode, "min", false, self, dim, keepdim, &values, indices);
}

std::string argmax(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &out) {
  return indexed(mode, "argmax", true, self, dim, keepdim, nullptr, out);
}

std::string argmin(Mode mode, const TensorView &self, int64_t dim, bool keepdim,
                   const TensorView &out) {
  return indexed(mode, "argmin", false, self, dim, keepdim, nullptr, out);
}

//===-- Softmax -----------------------------------------------------------===//

namespace {

std::string softmaxImpl(Mode mode, bool isLog, const TensorView &self,
                        int64_t dim, const TensorView &out) {
  const char *op = isLog ? "log_softmax" : "softmax";
  std::string e = checkTwo(op, "self", self, out, mode);
  if (!e.empty())
    return e;
  if (!isFloatingDtype(self.dtype) || !isFloatingDtype(out.dtype))
    return msg(op, "expected floating self and out, got ",
               dtypeName(self.dtype), " and ", dtypeName(out.dtype));
  int64_t d;
  if (!(e = wrapDim(op, dim, static_cast<int64_t>(self.shape.size()), &d))
           .empty() ||
      !(e = expectShape(op, "out", out, self.shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  // Outer: every dim but d; inner: along d.
  std::vector<int64_t> outer = self.shape, ss = self.strides, os = o.strides;
  int64_t len = 1, sst = 0, ost = 0;
  if (!self.shape.empty()) {
    len = self.shape[d];
    sst = self.strides[d];
    ost = o.strides[d];
    outer[d] = 1;
  }
  std::vector<double> buf(static_cast<size_t>(len));
  walk(outer, {ss, os}, {self.offset, o.offset}, [&](const int64_t *off) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < len; ++i) {
      buf[i] = load<double>(self.dtype, at(self, off[0] + i * sst));
      if (std::isnan(buf[i]) || buf[i] > mx)
        mx = std::isnan(mx) ? mx : buf[i];
    }
    if (std::isinf(mx) && mx < 0)
      mx = 0; // all -inf: keep exp(-inf - 0) = 0
    double s = 0;
    for (int64_t i = 0; i < len; ++i)
      s += std::exp(buf[i] - mx);
    double ls = std::log(s);
    for (int64_t i = 0; i < len; ++i) {
      double r = isLog ? buf[i] - mx - ls : std::exp(buf[i] - mx) / s;
      store<double>(o.dtype, at(o, off[1] + i * ost), r);
    }
  });
  ov.finish();
  return {};
}

std::string checkOptional(const TensorView *v, const char *what, Mode mode) {
  if (!v)
    return {};
  std::string e = checkView(*v, what, mode);
  if (!e.empty())
    return e;
  if (!isFloatingDtype(v->dtype))
    return msg(what, "expected a floating dtype, got ", dtypeName(v->dtype));
  return {};
}

// A statistics output (mean, rstd) must have `lead` followed by `ones` ones,
// or just `lead`; its strides along lead.
std::string checkStats(const char *op, const char *what, const TensorView *v,
                       const std::vector<int64_t> &lead, size_t ones) {
  if (!v)
    return {};
  std::vector<int64_t> withOnes = lead;
  withOnes.resize(lead.size() + ones, 1);
  if (v->shape != withOnes && v->shape != lead)
    return msg(op, what, " has shape ", shapeStr(v->shape), ", expected ",
               shapeStr(withOnes));
  return {};
}

std::vector<int64_t> leadStrides(const TensorView &v, size_t lead) {
  return std::vector<int64_t>(v.strides.begin(), v.strides.begin() + lead);
}

} // namespace

std::string softmax(Mode mode, const TensorView &self, int64_t dim,
                    const TensorView &out) {
  return softmaxImpl(mode, false, self, dim, out);
}

std::string logSoftmax(Mode mode, const TensorView &self, int64_t dim,
                       const TensorView &out) {
  return softmaxImpl(mode, true, self, dim, out);
}

//===-- Normalisations ----------------------------------------------------===//

std::string layerNorm(Mode mode, const TensorView &input,
                      const std::vector<int64_t> &normalizedShape,
                      const TensorView *weight, const TensorView *bias,
                      double eps, const TensorView &out,
                      const TensorView *meanOut, const TensorView *rstdOut) {
  const char *op = "layer_norm";
  std::string e;
  if (!(e = checkOptional(&input, "layer_norm: input", mode)).empty() ||
      !(e = checkOptional(&out, "layer_norm: out", mode)).empty() ||
      !(e = checkOptional(weight, "layer_norm: weight", mode)).empty() ||
      !(e = checkOptional(bias, "layer_norm: bias", mode)).empty() ||
      !(e = checkOptional(meanOut, "layer_norm: mean", mode)).empty() ||
      !(e = checkOptional(rstdOut, "layer_norm: rstd", mode)).empty())
    return e;
  size_t nd = input.shape.size(), k = normalizedShape.size();
  if (k == 0 || k > nd)
    return msg(op, "normalized_shape ", shapeStr(normalizedShape),
               " must be 1 to ", nd, " trailing dims of the input");
  size_t lead = nd - k;
  std::vector<int64_t> tail(input.shape.begin() + lead, input.shape.end()),
      head(input.shape.begin(), input.shape.begin() + lead);
  if (tail != normalizedShape)
    return msg(op, "normalized_shape ", shapeStr(normalizedShape),
               " is not the trailing dims of input ", shapeStr(input.shape));
  if ((weight && !(e = expectShape(op, "weight", *weight, tail)).empty()) ||
      (bias && !(e = expectShape(op, "bias", *bias, tail)).empty()) ||
      !(e = expectShape(op, "out", out, input.shape)).empty() ||
      !(e = checkStats(op, "mean", meanOut, head, k)).empty() ||
      !(e = checkStats(op, "rstd", rstdOut, head, k)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  std::vector<TensorView> ins = {input};
  if (weight)
    ins.push_back(*weight);
  if (bias)
    ins.push_back(*bias);
  OutputView ov(out, ins);
  TensorView none;
  OutputView om(meanOut ? *meanOut : none, ins);
  OutputView orr(rstdOut ? *rstdOut : none, ins);
  const TensorView &o = ov.view(), &m = om.view(), &r = orr.view();
  std::vector<int64_t> inTail(input.strides.begin() + lead,
                              input.strides.end()),
      outTail(o.strides.begin() + lead, o.strides.end());
  std::vector<int64_t> zeros(k, 0);
  const TensorView &w = weight ? *weight : none, &b = bias ? *bias : none;
  int64_t count = numel(tail);
  walk(head,
       {leadStrides(input, lead), leadStrides(o, lead),
        meanOut ? leadStrides(m, lead) : std::vector<int64_t>(lead, 0),
        rstdOut ? leadStrides(r, lead) : std::vector<int64_t>(lead, 0)},
       {input.offset, o.offset, m.offset, r.offset}, [&](const int64_t *off) {
         double s = 0, sq = 0;
         walk(tail, {inTail}, {off[0]}, [&](const int64_t *i) {
           s += load<double>(input.dtype, at(input, i[0]));
         });
         double mu = s / static_cast<double>(count);
         walk(tail, {inTail}, {off[0]}, [&](const int64_t *i) {
           double d = load<double>(input.dtype, at(input, i[0])) - mu;
           sq += d * d;
         });
         double rstd = 1.0 / std::sqrt(sq / static_cast<double>(count) + eps);
         walk(tail,
              {inTail, outTail, weight ? w.strides : zeros,
               bias ? b.strides : zeros},
              {off[0], off[1], w.offset, b.offset}, [&](const int64_t *i) {
                double y =
                    (load<double>(input.dtype, at(input, i[0])) - mu) * rstd;
                if (weight)
                  y *= load<double>(w.dtype, at(w, i[2]));
                if (bias)
                  y += load<double>(b.dtype, at(b, i[3]));
                store<double>(o.dtype, at(o, i[1]), y);
              });
         if (meanOut)
           store<double>(m.dtype, at(m, off[2]), mu);
         if (rstdOut)
           store<double>(r.dtype, at(r, off[3]), rstd);
       });
  ov.finish();
  if (meanOut)
    om.finish();
  if (rstdOut)
    orr.finish();
  return {};
}

std::string rmsNorm(Mode mode, const TensorView &x, const TensorView &gamma,
                    double eps, const TensorView &y,
                    const TensorView *rstdOut) {
  const char *op = "rms_norm";
  std::string e;
  if (!(e = checkOptional(&x, "rms_norm: x", mode)).empty() ||
      !(e = checkOptional(&gamma, "rms_norm: gamma", mode)).empty() ||
      !(e = checkOptional(&y, "rms_norm: y", mode)).empty() ||
      !(e = checkOptional(rstdOut, "rms_norm: rstd", mode)).empty())
    return e;
  size_t nd = x.shape.size(), k = gamma.shape.size();
  if (k == 0 || k > nd)
    return msg(op, "gamma of ", k, " dims for x of ", nd, " dims");
  size_t lead = nd - k;
  std::vector<int64_t> tail(x.shape.begin() + lead, x.shape.end()),
      head(x.shape.begin(), x.shape.begin() + lead);
  if (!(e = expectShape(op, "gamma", gamma, tail)).empty() ||
      !(e = expectShape(op, "y", y, x.shape)).empty() ||
      !(e = checkStats(op, "rstd", rstdOut, head, k)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView oy(y, {&x, &gamma});
  TensorView none;
  OutputView orr(rstdOut ? *rstdOut : none, {&x, &gamma});
  const TensorView &o = oy.view(), &r = orr.view();
  std::vector<int64_t> inTail(x.strides.begin() + lead, x.strides.end()),
      outTail(o.strides.begin() + lead, o.strides.end());
  int64_t count = numel(tail);
  walk(head,
       {leadStrides(x, lead), leadStrides(o, lead),
        rstdOut ? leadStrides(r, lead) : std::vector<int64_t>(lead, 0)},
       {x.offset, o.offset, r.offset}, [&](const int64_t *off) {
         double sq = 0;
         walk(tail, {inTail}, {off[0]}, [&](const int64_t *i) {
           double v = load<double>(x.dtype, at(x, i[0]));
           sq += v * v;
         });
         double rstd = 1.0 / std::sqrt(sq / static_cast<double>(count) + eps);
         walk(tail, {inTail, outTail, gamma.strides},
              {off[0], off[1], gamma.offset}, [&](const int64_t *i) {
                double v = load<double>(x.dtype, at(x, i[0])) * rstd *
                           load<double>(gamma.dtype, at(gamma, i[2]));
                store<double>(o.dtype, at(o, i[1]), v);
              });
         if (rstdOut)
           store<double>(r.dtype, at(r, off[2]), rstd);
       });
  oy.finish();
  if (rstdOut)
    orr.finish();
  return {};
}

std::string groupNorm(Mode mode, const TensorView &input,
                      const TensorView *weight, const TensorView *bias,
                      int64_t n, int64_t c, int64_t hxw, int64_t group,
                      double eps, const TensorView &out,
                      const TensorView *meanOut, const TensorView *rstdOut) {
  const char *op = "group_norm";
  std::string e;
  if (!(e = checkOptional(&input, "group_norm: input", mode)).empty() ||
      !(e = checkOptional(&out, "group_norm: out", mode)).empty() ||
      !(e = checkOptional(weight, "group_norm: weight", mode)).empty() ||
      !(e = checkOptional(bias, "group_norm: bias", mode)).empty() ||
      !(e = checkOptional(meanOut, "group_norm: mean", mode)).empty() ||
      !(e = checkOptional(rstdOut, "group_norm: rstd", mode)).empty())
    return e;
  if (input.shape.size() < 2)
    return msg(op, "expected input of at least 2 dims, got ",
               shapeStr(input.shape));
  std::vector<int64_t> spatial(input.shape.begin() + 2, input.shape.end());
  if (input.shape[0] != n || input.shape[1] != c || numel(spatial) != hxw)
    return msg(op, "input ", shapeStr(input.shape), " is not N=", n, ", C=", c,
               ", HxW=", hxw);
  if (group <= 0 || c % group != 0)
    return msg(op, "expected C=", c, " divisible by group=", group);
  if ((weight && !(e = expectShape(op, "weight", *weight, {c})).empty()) ||
      (bias && !(e = expectShape(op, "bias", *bias, {c})).empty()) ||
      !(e = expectShape(op, "out", out, input.shape)).empty() ||
      (meanOut &&
       !(e = expectShape(op, "mean", *meanOut, {n, group})).empty()) ||
      (rstdOut && !(e = expectShape(op, "rstd", *rstdOut, {n, group})).empty()))
    return e;
  if (mode == Mode::Check)
    return {};
  std::vector<TensorView> ins = {input};
  if (weight)
    ins.push_back(*weight);
  if (bias)
    ins.push_back(*bias);
  OutputView ov(out, ins);
  TensorView none;
  OutputView om(meanOut ? *meanOut : none, ins);
  OutputView orr(rstdOut ? *rstdOut : none, ins);
  const TensorView &o = ov.view(), &m = om.view(), &r = orr.view();
  std::vector<int64_t> inSp(input.strides.begin() + 2, input.strides.end()),
      outSp(o.strides.begin() + 2, o.strides.end());
  int64_t cpg = c / group;
  double count = static_cast<double>(cpg * hxw);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t g = 0; g < group; ++g) {
      auto inBase = [&](int64_t ch) {
        return input.offset + i * input.strides[0] + ch * input.strides[1];
      };
      double s = 0, sq = 0;
      for (int64_t ch = g * cpg; ch < (g + 1) * cpg; ++ch)
        walk(spatial, {inSp}, {inBase(ch)}, [&](const int64_t *p) {
          s += load<double>(input.dtype, at(input, p[0]));
        });
      double mu = s / count;
      for (int64_t ch = g * cpg; ch < (g + 1) * cpg; ++ch)
        walk(spatial, {inSp}, {inBase(ch)}, [&](const int64_t *p) {
          double d = load<double>(input.dtype, at(input, p[0])) - mu;
          sq += d * d;
        });
      double rstd = 1.0 / std::sqrt(sq / count + eps);
      for (int64_t ch = g * cpg; ch < (g + 1) * cpg; ++ch) {
        double wv =
            weight ? load<double>(
                         weight->dtype,
                         at(*weight, weight->offset + ch * weight->strides[0]))
                   : 1.0;
        double bv =
            bias ? load<double>(bias->dtype,
                                at(*bias, bias->offset + ch * bias->strides[0]))
                 : 0.0;
        walk(spatial, {inSp, outSp},
             {inBase(ch), o.offset + i * o.strides[0] + ch * o.strides[1]},
             [&](const int64_t *p) {
               double v = (load<double>(input.dtype, at(input, p[0])) - mu) *
                              rstd * wv +
                          bv;
               store<double>(o.dtype, at(o, p[1]), v);
             });
      }
      if (meanOut)
        store<double>(
            m.dtype, at(m, m.offset + i * m.strides[0] + g * m.strides[1]), mu);
      if (rstdOut)
        store<double>(r.dtype,
                      at(r, r.offset + i * r.strides[0] + g * r.strides[1]),
                      rstd);
    }
  }
  ov.finish();
  if (meanOut)
    om.finish();
  if (rstdOut)
    orr.finish();
  return {};
}

} // namespace mssim::nn
