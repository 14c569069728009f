//===- kernels_shape.cpp - Shapes, indexing, generators -------------------===//
//
// permute, cat, split, slice, index_select, gather, scatter, embedding,
// arange, repeat, constant pad (kernels.h).
//
//===----------------------------------------------------------------------===//
#include "kernels_internal.h"

#include <algorithm>

namespace mssim::nn {

using namespace detail;

namespace {

std::string checkInOut(const char *op, Mode mode, const TensorView &self,
                       const TensorView &out) {
  std::string s = op, e;
  if (!(e = checkView(self, (s + ": self").c_str(), mode)).empty() ||
      !(e = checkView(out, (s + ": out").c_str(), mode)).empty())
    return e;
  if (!canCast(self.dtype, out.dtype))
    return msg(op, "self of dtype ", dtypeName(self.dtype),
               " can't be cast to out's ", dtypeName(out.dtype));
  return {};
}

// v narrowed to [start, start + len) along dim d.
TensorView narrowed(const TensorView &v, size_t d, int64_t start, int64_t len) {
  TensorView r = v;
  r.offset += start * v.strides[d];
  r.shape[d] = len;
  return r;
}

// Copies with the overlap-safe output.
void safeCopy(const TensorView &dst, const TensorView &src) {
  OutputView ov(dst, {&src});
  copyRaw(ov.view(), src);
  ov.finish();
}

std::string checkIndexDtype(const char *op, const TensorView &index) {
  if (index.dtype != ACL_INT64 && index.dtype != ACL_INT32)
    return msg(op, "expected index of dtype Long or Int, got ",
               dtypeName(index.dtype));
  return {};
}

} // namespace

std::string permute(Mode mode, const TensorView &self,
                    const std::vector<int64_t> &dims, const TensorView &out) {
  std::string e = checkInOut("permute", mode, self, out);
  if (!e.empty())
    return e;
  size_t nd = self.shape.size();
  if (dims.size() != nd)
    return msg("permute", "number of dims ", dims.size(),
               " does not match the tensor's ", nd);
  TensorView v = self;
  std::vector<bool> seen(nd, false);
  for (size_t i = 0; i < nd; ++i) {
    int64_t d;
    if (!(e = wrapDim("permute", dims[i], static_cast<int64_t>(nd), &d))
             .empty())
      return e;
    if (seen[d])
      return msg("permute", "repeated dim ", d);
    seen[d] = true;
    v.shape[i] = self.shape[d];
    v.strides[i] = self.strides[d];
  }
  if (!(e = expectShape("permute", "out", out, v.shape)).empty())
    return e;
  if (mode == Mode::Run)
    safeCopy(out, v);
  return {};
}

std::string cat(Mode mode, const std::vector<TensorView> &tensors, int64_t dim,
                const TensorView &out) {
  std::string e;
  if (tensors.empty())
    return msg("cat", "expected a non-empty list of tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::string what = "cat: tensor " + std::to_string(i);
    if (!(e = checkView(tensors[i], what.c_str(), mode)).empty())
      return e;
  }
  if (!(e = checkView(out, "cat: out", mode)).empty())
    return e;
  // torch skips legacy empty 1-D tensors (shape [0]).
  auto skipped = [](const TensorView &t) {
    return t.shape.size() == 1 && t.shape[0] == 0;
  };
  const TensorView *ref = nullptr;
  aclDataType result = tensors[0].dtype;
  for (const TensorView &t : tensors) {
    result = promoteTypes(result, t.dtype);
    if (!ref && !skipped(t))
      ref = &t;
  }
  if (!canCast(result, out.dtype))
    return msg("cat", "result type ", dtypeName(result),
               " can't be cast to the desired output type ",
               dtypeName(out.dtype));
  if (!ref) // all empty
    return expectShape("cat", "out", out, {0});
  size_t nd = ref->shape.size();
  if (nd == 0)
    return msg("cat", "zero-dimensional tensor cannot be concatenated");
  int64_t d;
  if (!(e = wrapDim("cat", dim, static_cast<int64_t>(nd), &d)).empty())
    return e;
  std::vector<int64_t> shape = ref->shape;
  shape[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorView &t = tensors[i];
    if (skipped(t))
      continue;
    if (t.shape.size() != nd)
      return msg("cat", "tensors must have the same number of dims: got ", nd,
                 " and ", t.shape.size(), " (tensor ", i, ")");
    for (size_t j = 0; j < nd; ++j)
      if (static_cast<int64_t>(j) != d && t.shape[j] != ref->shape[j])
        return msg("cat", "sizes of tensors must match except in dim ", d,
                   ": expected ", ref->shape[j], " in dim ", j, ", got ",
                   t.shape[j], " (tensor ", i, ")");
    shape[d] += t.shape[d];
  }
  if (!(e = expectShape("cat", "out", out, shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, tensors);
  const TensorView &o = ov.view();
  int64_t pos = 0;
  for (const TensorView &t : tensors) {
    if (skipped(t))
      continue;
    copyRaw(narrowed(o, d, pos, t.shape[d]), t);
    pos += t.shape[d];
  }
  ov.finish();
  return {};
}

std::string splitWithSizes(Mode mode, const TensorView &self,
                           const std::vector<int64_t> &sizes, int64_t dim,
                           const std::vector<TensorView> &outs) {
  std::string e = checkView(self, "split: self", mode);
  if (!e.empty())
    return e;
  int64_t d;
  if (!(e = wrapDim("split", dim, static_cast<int64_t>(self.shape.size()), &d))
           .empty())
    return e;
  if (self.shape.empty())
    return msg("split", "cannot split a 0-d tensor");
  if (sizes.size() != outs.size())
    return msg("split", sizes.size(), " sizes for ", outs.size(), " outputs");
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      return msg("split", "negative split size ", s);
    total += s;
  }
  if (total != self.shape[d])
    return msg("split", "split sizes ", shapeStr(sizes), " do not sum to ",
               self.shape[d], " (dim ", d, ")");
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string what = "split: out " + std::to_string(i);
    if (!(e = checkView(outs[i], what.c_str(), mode)).empty())
      return e;
    if (!canCast(self.dtype, outs[i].dtype))
      return msg("split", "self of dtype ", dtypeName(self.dtype),
                 " can't be cast to out's ", dtypeName(outs[i].dtype));
    std::vector<int64_t> shape = self.shape;
    shape[d] = sizes[i];
    if (!(e = expectShape("split", what.c_str(), outs[i], shape)).empty())
      return e;
  }
  if (mode == Mode::Check)
    return {};
  // All outputs from the input as it was: copy it first if any overlaps.
  std::vector<uint8_t> buffer;
  TensorView src = self;
  for (const TensorView &o : outs)
    if (mayOverlap(o, self))
      src = materialize(self, &buffer);
  int64_t pos = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    copyRaw(outs[i], narrowed(src, d, pos, sizes[i]));
    pos += sizes[i];
  }
  return {};
}

std::string split(Mode mode, const TensorView &self, int64_t splitSize,
                  int64_t dim, const std::vector<TensorView> &outs) {
  std::string e = checkView(self, "split: self", mode);
  if (!e.empty())
    return e;
  int64_t d;
  if (!(e = wrapDim("split", dim, static_cast<int64_t>(self.shape.size()), &d))
           .empty())
    return e;
  if (self.shape.empty())
    return msg("split", "cannot split a 0-d tensor");
  int64_t len = self.shape[d];
  if (splitSize < 0 || (splitSize == 0 && len != 0))
    return msg("split", "split size ", splitSize, " for a dim of ", len);
  std::vector<int64_t> sizes;
  if (splitSize == 0) {
    sizes.push_back(0);
  } else {
    for (int64_t pos = 0; pos < len; pos += splitSize)
      sizes.push_back(std::min(splitSize, len - pos));
    if (sizes.empty())
      sizes.push_back(0);
  }
  return splitWithSizes(mode, self, sizes, dim, outs);
}

std::string slice(Mode mode, const TensorView &self, int64_t dim, int64_t start,
                  int64_t end, int64_t step, const TensorView &out) {
  std::string e = checkInOut("slice", mode, self, out);
  if (!e.empty())
    return e;
  if (self.shape.empty())
    return msg("slice", "cannot slice a 0-d tensor");
  int64_t d;
  if (!(e = wrapDim("slice", dim, static_cast<int64_t>(self.shape.size()), &d))
           .empty())
    return e;
  if (step <= 0)
    return msg("slice", "step must be positive, got ", step);
  int64_t size = self.shape[d];
  if (start < 0)
    start = start < -size ? 0 : start + size;
  if (end < 0)
    end = end < -size ? 0 : end + size;
  start = std::min(start, size);
  end = std::clamp(end, start, size);
  int64_t len = end == start ? 0 : (end - start - 1) / step + 1;
  TensorView v = self;
  v.offset += start * self.strides[d];
  v.shape[d] = len;
  v.strides[d] = self.strides[d] * step;
  if (!(e = expectShape("slice", "out", out, v.shape)).empty())
    return e;
  if (mode == Mode::Run)
    safeCopy(out, v);
  return {};
}

std::string indexSelect(Mode mode, const TensorView &self, int64_t dim,
                        const TensorView &index, const TensorView &out) {
  std::string e = checkInOut("index_select", mode, self, out);
  if (!e.empty() ||
      !(e = checkView(index, "index_select: index", mode)).empty() ||
      !(e = checkIndexDtype("index_select", index)).empty())
    return e;
  if (index.shape.size() > 1)
    return msg("index_select", "index must be 1-D, got ",
               shapeStr(index.shape));
  int64_t d;
  if (!(e = wrapDim("index_select", dim,
                    static_cast<int64_t>(self.shape.size()), &d))
           .empty())
    return e;
  int64_t count = numel(index.shape);
  std::vector<int64_t> shape = self.shape;
  if (!shape.empty())
    shape[d] = count;
  else if (count != 1)
    return msg("index_select", "index of ", count,
               " elements for a 0-d tensor");
  if (!(e = expectShape("index_select", "out", out, shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  int64_t size = self.shape.empty() ? 1 : self.shape[d];
  std::vector<int64_t> idx;
  walk(index.shape, {index.strides}, {index.offset}, [&](const int64_t *off) {
    idx.push_back(load<int64_t>(index.dtype, at(index, off[0])));
  });
  for (int64_t i : idx)
    if (i < 0 || i >= size)
      return msg("index_select", "index ", i, " out of range for dim ", d,
                 " of size ", size);
  OutputView ov(out, {&self, &index});
  const TensorView &o = ov.view();
  if (self.shape.empty()) {
    copyRaw(o, self);
  } else {
    for (size_t j = 0; j < idx.size(); ++j)
      copyRaw(narrowed(o, d, static_cast<int64_t>(j), 1),
              narrowed(self, d, idx[j], 1));
  }
  ov.finish();
  return {};
}

namespace {

// Shared checks of gather and scatter: self, index (and src) of one rank,
// index no larger than `bound` in every dim but dim (and src in all).
std::string checkIndexed(const char *op, const TensorView &self,
                         const TensorView &index, const TensorView *src,
                         int64_t dim, int64_t *d) {
  std::string e = checkIndexDtype(op, index);
  if (!e.empty())
    return e;
  size_t nd = self.shape.size();
  if (index.shape.size() != nd || (src && src->shape.size() != nd))
    return msg(op, "index ", shapeStr(index.shape),
               " must have as many dims "
               "as self ",
               shapeStr(self.shape));
  if (!(e = wrapDim(op, dim, static_cast<int64_t>(nd), d)).empty())
    return e;
  for (size_t j = 0; j < nd; ++j) {
    if (static_cast<int64_t>(j) != *d && index.shape[j] > self.shape[j])
      return msg(op, "index ", shapeStr(index.shape), " is larger than self ",
                 shapeStr(self.shape), " in dim ", j);
    if (src && index.shape[j] > src->shape[j])
      return msg(op, "index ", shapeStr(index.shape), " is larger than src ",
                 shapeStr(src->shape), " in dim ", j);
  }
  return {};
}

} // namespace

std::string gather(Mode mode, const TensorView &self, int64_t dim,
                   const TensorView &index, const TensorView &out) {
  std::string e = checkInOut("gather", mode, self, out);
  int64_t d;
  if (!e.empty() || !(e = checkView(index, "gather: index", mode)).empty() ||
      !(e = checkIndexed("gather", self, index, nullptr, dim, &d)).empty() ||
      !(e = expectShape("gather", "out", out, index.shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  bool zeroD = self.shape.empty();
  int64_t size = zeroD ? 1 : self.shape[d];
  int64_t step = zeroD ? 0 : self.strides[d];
  std::vector<int64_t> ss = self.strides;
  if (!zeroD)
    ss[d] = 0;
  OutputView ov(out, {&self, &index});
  const TensorView &o = ov.view();
  std::string bad;
  walk(index.shape, {index.strides, o.strides, ss},
       {index.offset, o.offset, self.offset}, [&](const int64_t *off) {
         int64_t i = load<int64_t>(index.dtype, at(index, off[0]));
         if (i < 0 || i >= size) {
           if (bad.empty())
             bad = msg("gather", "index ", i, " out of bounds for dim ", d,
                       " of size ", size);
           return;
         }
         copyRaw(contiguousView(o.dtype, {}, at(o, off[1])),
                 contiguousView(self.dtype, {}, at(self, off[2] + i * step)));
       });
  if (!bad.empty())
    return bad;
  ov.finish();
  return {};
}

namespace {

std::string scatterImpl(Mode mode, const TensorView &self, int64_t dim,
                        const TensorView &index, const TensorView *src,
                        const Scalar *value, ScatterReduce reduce,
                        const TensorView &out) {
  std::string e;
  int64_t d;
  if (!(e = checkView(self, "scatter: self", mode)).empty() ||
      !(e = checkView(out, "scatter: out", mode)).empty() ||
      !(e = checkView(index, "scatter: index", mode)).empty() ||
      (src && !(e = checkView(*src, "scatter: src", mode)).empty()) ||
      !(e = checkIndexed("scatter", self, index, src, dim, &d)).empty() ||
      !(e = expectShape("scatter", "out", out, self.shape)).empty())
    return e;
  if (out.dtype != self.dtype)
    return msg("scatter", "expected out of dtype ", dtypeName(self.dtype),
               ", got ", dtypeName(out.dtype));
  if (src && src->dtype != self.dtype)
    return msg("scatter", "expected src of dtype ", dtypeName(self.dtype),
               ", got ", dtypeName(src->dtype));
  if (value && !isSupportedDtype(value->dtype))
    return msg("scatter", "unsupported scalar dtype");
  if (reduce != ScatterReduce::None && self.dtype == ACL_BOOL)
    return msg("scatter", "reduce is not supported for Bool");
  if (mode == Mode::Check)
    return {};
  std::vector<TensorView> ins = {self, index};
  if (src)
    ins.push_back(*src);
  OutputView ov(out, ins);
  const TensorView &o = ov.view();
  copyRaw(o, self);
  bool zeroD = self.shape.empty();
  int64_t size = zeroD ? 1 : self.shape[d];
  int64_t step = zeroD ? 0 : o.strides[d];
  std::vector<int64_t> os = o.strides;
  if (!zeroD)
    os[d] = 0;
  TensorView none;
  const TensorView &s = src ? *src : none;
  std::vector<int64_t> srcStrides =
      src ? s.strides : std::vector<int64_t>(index.shape.size(), 0);
  std::string bad;
  withDomain(self.dtype, [&](auto tag) {
    using C = decltype(tag);
    C v = value ? scalarAs<C>(*value) : C{};
    walk(index.shape, {index.strides, srcStrides, os},
         {index.offset, s.offset, o.offset}, [&](const int64_t *off) {
           int64_t i = load<int64_t>(index.dtype, at(index, off[0]));
           if (i < 0 || i >= size) {
             if (bad.empty())
               bad = msg("scatter", "index ", i, " out of bounds for dim ", d,
                         " of size ", size);
             return;
           }
           uint8_t *p = at(o, off[2] + i * step);
           C x = src ? load<C>(s.dtype, at(s, off[1])) : v;
           if (reduce == ScatterReduce::Add)
             x = static_cast<C>(load<C>(o.dtype, p) + x);
           else if (reduce == ScatterReduce::Multiply)
             x = static_cast<C>(load<C>(o.dtype, p) * x);
           store<C>(o.dtype, p, x);
         });
  });
  if (!bad.empty())
    return bad;
  ov.finish();
  return {};
}

} // namespace

std::string scatter(Mode mode, const TensorView &self, int64_t dim,
                    const TensorView &index, const TensorView &src,
                    ScatterReduce reduce, const TensorView &out) {
  return scatterImpl(mode, self, dim, index, &src, nullptr, reduce, out);
}

std::string scatterValue(Mode mode, const TensorView &self, int64_t dim,
                         const TensorView &index, const Scalar &value,
                         ScatterReduce reduce, const TensorView &out) {
  return scatterImpl(mode, self, dim, index, nullptr, &value, reduce, out);
}

std::string embedding(Mode mode, const TensorView &weight,
                      const TensorView &indices, const TensorView &out) {
  std::string e = checkInOut("embedding", mode, weight, out);
  if (!e.empty() ||
      !(e = checkView(indices, "embedding: indices", mode)).empty() ||
      !(e = checkIndexDtype("embedding", indices)).empty())
    return e;
  if (weight.shape.size() != 2)
    return msg("embedding", "weight must be 2-D, got ", shapeStr(weight.shape));
  std::vector<int64_t> shape = indices.shape;
  shape.push_back(weight.shape[1]);
  if (!(e = expectShape("embedding", "out", out, shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&weight, &indices});
  const TensorView &o = ov.view();
  std::vector<int64_t> os(o.strides.begin(), o.strides.end() - 1);
  int64_t rows = weight.shape[0];
  std::string bad;
  walk(indices.shape, {indices.strides, os}, {indices.offset, o.offset},
       [&](const int64_t *off) {
         int64_t i = load<int64_t>(indices.dtype, at(indices, off[0]));
         if (i < 0 || i >= rows) {
           if (bad.empty())
             bad = msg("embedding", "index ", i, " out of range for ", rows,
                       " rows");
           return;
         }
         TensorView dst = o, row = weight;
         dst.shape = {weight.shape[1]};
         dst.strides = {o.strides.back()};
         dst.offset = off[1];
         row.shape = {weight.shape[1]};
         row.strides = {weight.strides[1]};
         row.offset = weight.offset + i * weight.strides[0];
         copyRaw(dst, row);
       });
  if (!bad.empty())
    return bad;
  ov.finish();
  return {};
}

std::string arange(Mode mode, const Scalar &start, const Scalar &end,
                   const Scalar &step, const TensorView &out) {
  std::string e = checkView(out, "arange: out", mode);
  if (!e.empty())
    return e;
  if (!isSupportedDtype(start.dtype) || !isSupportedDtype(end.dtype) ||
      !isSupportedDtype(step.dtype))
    return msg("arange", "unsupported scalar dtype");
  if (out.dtype == ACL_BOOL)
    return msg("arange", "not implemented for 'Bool'");
  bool floating = isFloatingDtype(start.dtype) || isFloatingDtype(end.dtype) ||
                  isFloatingDtype(step.dtype);
  double s = start.toDouble(), t = end.toDouble(), st = step.toDouble();
  if (st == 0)
    return msg("arange", "step must be nonzero");
  if (!std::isfinite(s) || !std::isfinite(t))
    return msg("arange", "unsupported range: ", s, " -> ", t);
  if ((st > 0 && t < s) || (st < 0 && t > s))
    return msg("arange", "upper bound and larger bound inconsistent with "
                         "step sign");
  int64_t count;
  if (floating) {
    double c = std::ceil((t - s) / st);
    if (c > 1e15)
      return msg("arange", "too many elements");
    count = static_cast<int64_t>(c);
  } else {
    int64_t a = start.toInt(), b = end.toInt(), k = step.toInt();
    __int128 diff = static_cast<__int128>(b) - a;
    __int128 c = (diff + k - (k > 0 ? 1 : -1)) / k;
    if (c > static_cast<__int128>(1e15))
      return msg("arange", "too many elements");
    count = static_cast<int64_t>(c);
  }
  if (!(e = expectShape("arange", "out", out, {count})).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  for (int64_t i = 0; i < count; ++i) {
    uint8_t *p = at(out, out.offset + i * out.strides[0]);
    if (floating || isFloatingDtype(out.dtype))
      store<double>(out.dtype, p, s + static_cast<double>(i) * st);
    else
      store<int64_t>(out.dtype, p, start.toInt() + i * step.toInt());
  }
  return {};
}

std::string repeat(Mode mode, const TensorView &self,
                   const std::vector<int64_t> &repeats, const TensorView &out) {
  std::string e = checkInOut("repeat", mode, self, out);
  if (!e.empty())
    return e;
  size_t nd = self.shape.size(), nr = repeats.size();
  if (nr < nd)
    return msg("repeat", "number of repeat dims ", nr,
               " can not be smaller than the tensor's ", nd);
  std::vector<int64_t> shape(nr), ss(nr, 0), sst(nr, 0);
  for (size_t i = 0; i < nr; ++i) {
    if (repeats[i] < 0)
      return msg("repeat", "negative repeat ", repeats[i]);
    size_t pad = nr - nd;
    int64_t sz = i < pad ? 1 : self.shape[i - pad];
    ss[i] = sz;
    sst[i] = i < pad ? 0 : self.strides[i - pad];
    shape[i] = sz * repeats[i];
  }
  if (!(e = expectShape("repeat", "out", out, shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  // out as (r0, s0, r1, s1, ...), self expanded along the r dims.
  TensorView dst = o, src = self;
  dst.shape.clear();
  dst.strides.clear();
  src.shape.clear();
  src.strides.clear();
  for (size_t i = 0; i < nr; ++i) {
    dst.shape.insert(dst.shape.end(), {repeats[i], ss[i]});
    dst.strides.insert(dst.strides.end(), {ss[i] * o.strides[i], o.strides[i]});
    src.shape.insert(src.shape.end(), {repeats[i], ss[i]});
    src.strides.insert(src.strides.end(), {0, sst[i]});
  }
  // copyRaw broadcasts src by its shape: give it dims of size 1 where it
  // repeats, so that expandStrides maps them to stride 0.
  for (size_t i = 0; i < nr; ++i)
    src.shape[2 * i] = 1;
  copyRaw(dst, src);
  ov.finish();
  return {};
}

std::string constantPad(Mode mode, const TensorView &self,
                        const std::vector<int64_t> &pad, const Scalar &value,
                        const TensorView &out) {
  std::string e = checkInOut("constant_pad_nd", mode, self, out);
  if (!e.empty())
    return e;
  if (!isSupportedDtype(value.dtype))
    return msg("constant_pad_nd", "unsupported scalar dtype");
  size_t nd = self.shape.size();
  if (pad.size() % 2 != 0 || pad.size() / 2 > nd)
    return msg("constant_pad_nd", "padding length ", pad.size(),
               " must be even and at most twice the dims (", nd, ")");
  std::vector<int64_t> shape = self.shape, before(nd, 0), after(nd, 0);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    size_t d = nd - 1 - i;
    before[d] = pad[2 * i];
    after[d] = pad[2 * i + 1];
    int64_t s = self.shape[d] + before[d] + after[d];
    if (s < 0)
      return msg("constant_pad_nd", "the input size ", self.shape[d],
                 ", plus negative padding ", before[d], " and ", after[d],
                 " resulted in a negative output size");
    shape[d] = s;
  }
  if (!(e = expectShape("constant_pad_nd", "out", out, shape)).empty())
    return e;
  if (mode == Mode::Check)
    return {};
  OutputView ov(out, {&self});
  const TensorView &o = ov.view();
  fill(Mode::Run, o, value);
  TensorView src = self, dst = o;
  for (size_t d = 0; d < nd; ++d) {
    int64_t cropLo = std::max<int64_t>(0, -before[d]);
    int64_t cropHi = std::max<int64_t>(0, -after[d]);
    int64_t len = std::max<int64_t>(0, self.shape[d] - cropLo - cropHi);
    src = narrowed(src, d, cropLo, len);
    dst = narrowed(dst, d, std::max<int64_t>(0, before[d]), len);
  }
  copyRaw(dst, src);
  ov.finish();
  return {};
}

} // namespace mssim::nn
