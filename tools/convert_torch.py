#!/usr/bin/python3
"""Convert a PyTorch SeqLabelEncoder (tools/reference_model.py) to a seqlabel model file.

    convert_torch.py CHECKPOINT.pt CONFIG.json OUT.slm

CHECKPOINT.pt: a state_dict of tools/reference_model.SeqLabelEncoder (or a dict with a
"state_dict" entry). CONFIG.json:
    {"model":    {d_model, n_heads, ... as reference_model.MODEL_DEFAULTS},
     "features": {sample_rate, num_mel_bins, ... as sl_feature_config; defaults = C's},
     "norm_mean": [n_features floats], "norm_inv_std": [n_features floats],
     "classes":  ["silence", "speech", ...]}

The file format is docs/model-format.md; write_model() below is a complete writer
in plain Python (struct + zlib), read_model() a reader. Tensors keep PyTorch's names
and layouts, so conversion is a straight copy (except in_proj_bias, left out when
qkv_bias is off: see reference_model.py).
"""
import array
import json
import os
import math
import struct
import sys
import zlib

if sys.byteorder != "little":
    raise SystemExit("convert_torch.py writes float32 in the host's order: needs a little-endian host")

MAGIC = b"SEQLABEL"
VERSION = 1

# Header field order and types: "i" int32, "f" float32, "I" uint32.
MODEL_FIELDS = [
    ("n_features", "i"), ("d_model", "i"), ("n_heads", "i"), ("n_layers", "i"),
    ("d_ff", "i"), ("n_classes", "i"), ("max_window", "i"), ("activation", "i"),
    ("norm_first", "i"), ("qkv_bias", "i"), ("scale_input", "i"), ("band_left", "i"),
    ("band_right", "i"), ("ln_eps", "f"), ("stream_window", "i"), ("stream_left", "i"),
    ("stream_lookahead", "i")]
FEATURE_FIELDS = [
    ("sample_rate", "i"), ("frame_length_ms", "f"), ("frame_shift_ms", "f"),
    ("num_mel_bins", "i"), ("low_freq", "f"), ("high_freq", "f"), ("window", "i"),
    ("preemph", "f"), ("remove_dc", "i"), ("dither", "f"), ("dither_seed", "I"),
    ("use_energy", "i"), ("energy_floor", "f"), ("raw_energy", "i"), ("num_ceps", "i"),
    ("cepstral_lifter", "f"), ("input_scale", "f")]
# sl_feature_config_default()
FEATURE_DEFAULTS = dict(
    sample_rate=16000, frame_length_ms=25.0, frame_shift_ms=10.0, num_mel_bins=80,
    low_freq=20.0, high_freq=0.0, window=0, preemph=0.97, remove_dc=1, dither=0.0,
    dither_seed=0, use_energy=0, energy_floor=0.0, raw_energy=1, num_ceps=0,
    cepstral_lifter=22.0, input_scale=32768.0)
WINDOWS = {"povey": 0, "hann": 1, "hamming": 2, "rectangular": 3}
ACTIVATIONS = {"relu": 0, "gelu": 1}


def tensor_layout(m):
    """[(name, shape)] in file order, for model settings m (as model/model.c lays them out)."""
    d, f = m["d_model"], m["d_ff"]
    out = [("input_proj.weight", (d, m["n_features"])), ("input_proj.bias", (d,))]
    for l in range(m["n_layers"]):
        p = f"encoder.layers.{l}."
        out.append((p + "self_attn.in_proj_weight", (3 * d, d)))
        if m["qkv_bias"]:
            out.append((p + "self_attn.in_proj_bias", (3 * d,)))
        out += [(p + "self_attn.out_proj.weight", (d, d)), (p + "self_attn.out_proj.bias", (d,)),
                (p + "linear1.weight", (f, d)), (p + "linear1.bias", (f,)),
                (p + "linear2.weight", (d, f)), (p + "linear2.bias", (d,)),
                (p + "norm1.weight", (d,)), (p + "norm1.bias", (d,)),
                (p + "norm2.weight", (d,)), (p + "norm2.bias", (d,))]
    if m["norm_first"]:
        out += [("encoder.norm.weight", (d,)), ("encoder.norm.bias", (d,))]
    out += [("classifier.weight", (m["n_classes"], d)), ("classifier.bias", (m["n_classes"],))]
    return out


def _header_values(model, features):
    m = dict(model)
    m["activation"] = ACTIVATIONS.get(m["activation"], m["activation"])
    for k in ("norm_first", "qkv_bias", "scale_input"):
        m[k] = int(bool(m[k]))
    f = dict(FEATURE_DEFAULTS, **features)
    f["window"] = WINDOWS.get(f["window"], f["window"])
    return m, f


def write_model(path, model, features, norm_mean, norm_inv_std, classes, tensors):
    """model: dict of MODEL_FIELDS (activation "relu"/"gelu" or 0/1); features: dict of
    FEATURE_FIELDS (missing ones take the C defaults); tensors: {name: flat list or
    anything with .flatten().tolist()}, shapes as tensor_layout(model)."""
    m, f = _header_values(model, features)
    out = bytearray(MAGIC)
    out += struct.pack("<II", VERSION, 4 * (len(MODEL_FIELDS) + len(FEATURE_FIELDS)))
    for name, t in MODEL_FIELDS:
        out += struct.pack("<" + t, m[name])
    for name, t in FEATURE_FIELDS:
        out += struct.pack("<" + t, f[name])
    n = m["n_features"]
    assert len(norm_mean) == n and len(norm_inv_std) == n
    out += struct.pack(f"<{n}f", *norm_mean)
    out += struct.pack(f"<{n}f", *norm_inv_std)
    assert len(classes) == m["n_classes"]
    for c in classes:
        b = c.encode("utf-8") if isinstance(c, str) else bytes(c)
        out += struct.pack("<I", len(b)) + b
    layout = tensor_layout(m)
    out += struct.pack("<I", len(layout))
    for name, shape in layout:
        t = tensors[name]
        vals = t.flatten().tolist() if hasattr(t, "flatten") else list(t)
        if len(vals) != math.prod(shape):
            raise ValueError(f"{name}: {len(vals)} values, shape {shape} needs {math.prod(shape)}")
        nb = name.encode()
        out += struct.pack("<I", len(nb)) + nb + struct.pack("<I", len(shape))
        out += struct.pack(f"<{len(shape)}I", *shape)
        out += array.array("f", vals).tobytes()
    out += struct.pack("<I", zlib.crc32(out) & 0xFFFFFFFF)
    tmp = path + ".tmp"
    with open(tmp, "wb") as fp:
        fp.write(out)
    os.replace(tmp, path)
    return len(out)


def read_model(path):
    """Returns (model, features, norm_mean, norm_inv_std, classes, {name: (shape, list)})."""
    data = open(path, "rb").read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a seqlabel model file")
    version, hbytes = struct.unpack_from("<II", data, 8)
    if version != VERSION:
        raise ValueError(f"{path}: format version {version}")
    if zlib.crc32(data[:-4]) & 0xFFFFFFFF != struct.unpack_from("<I", data, len(data) - 4)[0]:
        raise ValueError(f"{path}: checksum mismatch")
    pos = 16
    model, features = {}, {}
    for fields, dst in ((MODEL_FIELDS, model), (FEATURE_FIELDS, features)):
        for name, t in fields:
            dst[name] = struct.unpack_from("<" + t, data, pos)[0]
            pos += 4
    n = model["n_features"]
    mean = list(struct.unpack_from(f"<{n}f", data, pos)); pos += 4 * n
    inv = list(struct.unpack_from(f"<{n}f", data, pos)); pos += 4 * n
    classes = []
    for _ in range(model["n_classes"]):
        (ln,) = struct.unpack_from("<I", data, pos); pos += 4
        classes.append(data[pos:pos + ln].decode("utf-8")); pos += ln
    (nt,) = struct.unpack_from("<I", data, pos); pos += 4
    tensors = {}
    for _ in range(nt):
        (ln,) = struct.unpack_from("<I", data, pos); pos += 4
        name = data[pos:pos + ln].decode(); pos += ln
        (nd,) = struct.unpack_from("<I", data, pos); pos += 4
        shape = struct.unpack_from(f"<{nd}I", data, pos); pos += 4 * nd
        cnt = math.prod(shape)
        tensors[name] = (tuple(shape), array.array("f", data[pos:pos + 4 * cnt]).tolist())
        pos += 4 * cnt
    model["activation"] = {0: "relu", 1: "gelu"}[model["activation"]]
    return model, features, mean, inv, classes, tensors


def tensors_from_state_dict(state_dict, model):
    """The tensors the file holds, taken from a SeqLabelEncoder state_dict."""
    out = {}
    for name, shape in tensor_layout(model):
        t = state_dict[name].detach().to("cpu").float()
        if tuple(t.shape) != tuple(shape):
            raise ValueError(f"{name}: shape {tuple(t.shape)}, settings say {shape}")
        out[name] = t
    if not model["qkv_bias"]:
        for k, v in state_dict.items():
            if k.endswith("self_attn.in_proj_bias") and v.abs().max().item() != 0.0:
                raise ValueError(f"{k} is not zero but qkv_bias is off")
    return out


def module_from_file(path):
    """A reference_model.SeqLabelEncoder holding a model file's weights (for benchmarks
    and round-trip checks)."""
    import torch
    from reference_model import SeqLabelEncoder
    model, features, mean, inv, classes, tensors = read_model(path)
    net = SeqLabelEncoder(**model)
    sd = net.state_dict()
    for name, (shape, vals) in tensors.items():
        sd[name] = torch.tensor(vals, dtype=torch.float32).reshape(shape)
    net.load_state_dict(sd)
    return net, model, features, mean, inv, classes


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    import torch
    ckpt = torch.load(argv[1], map_location="cpu")
    sd = ckpt.get("state_dict", ckpt)
    cfg = json.load(open(argv[2]))
    from reference_model import MODEL_DEFAULTS
    model = dict(MODEL_DEFAULTS, **cfg["model"])
    n = model["n_features"]
    size = write_model(argv[3], model, cfg.get("features", {}),
                       cfg.get("norm_mean", [0.0] * n), cfg.get("norm_inv_std", [1.0] * n),
                       cfg["classes"], tensors_from_state_dict(sd, model))
    print(f"{argv[3]}: {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
