#!/usr/bin/python3
"""The executable definition of seqlabel's encoder, in PyTorch (Debian's torch 1.13).

    logits = classifier(TransformerEncoder(input_proj(x) [* sqrt(d_model)] + PE[0:T]))

built from torch.nn.TransformerEncoderLayer(batch_first=True, dropout=0) so that a
model trained here converts to a seqlabel model file with tools/convert_torch.py and
gives the same per-frame class scores in C (model/encoder.c).

Points where a choice had to be made (docs/encoder.md repeats them):
- PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...), computed in float64 and
  rounded to float32, positions 0..T-1 within each window. Not a parameter: it is a
  non-persistent buffer, so it is not in the state_dict.
- qkv_bias=False: torch 1.13's MultiheadAttention(bias=False) drops the output
  projection's bias too, while seqlabel keeps out_proj.bias and drops only the Q/K/V
  biases. So the module keeps bias=True and zeroes and freezes in_proj_bias; the
  converter checks it is still zero and leaves it out of the file.
- Banded attention: query i attends keys j with i - band_left <= j <= i + band_right
  (-1: no limit on that side), as a float mask of 0 / -inf, so masked keys get
  probability exactly 0 (the diagonal is always allowed, so no row is empty).
- Pre-norm (norm_first=True) adds a final LayerNorm (TransformerEncoder's norm).
- reference_logits() runs in float64 in training mode (dropout is 0, so training mode
  changes nothing but keeps torch off its eval "fast path", which has its own
  kernels); the C code must match that within float32 tolerance.
"""
import math

import torch
import torch.nn as nn


def positional_encoding(T, d):
    """T x d float32 table, computed in float64 then rounded (as the C code does)."""
    pos = torch.arange(T, dtype=torch.float64).unsqueeze(1)
    div = torch.pow(torch.tensor(10000.0, dtype=torch.float64),
                    torch.arange(0, d, 2, dtype=torch.float64) / d)
    pe = torch.zeros(T, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos / div)
    pe[:, 1::2] = torch.cos(pos / div)
    return pe.to(torch.float32)


def band_mask(T, band_left, band_right, dtype=torch.float32, device=None):
    """T x T additive mask (0 allowed, -inf excluded), or None for full attention."""
    if band_left < 0 and band_right < 0:
        return None
    i = torch.arange(T, device=device).unsqueeze(1)
    j = torch.arange(T, device=device).unsqueeze(0)
    allowed = torch.ones(T, T, dtype=torch.bool, device=device)
    if band_left >= 0:
        allowed &= j >= i - band_left
    if band_right >= 0:
        allowed &= j <= i + band_right
    mask = torch.zeros(T, T, dtype=dtype, device=device)
    mask.masked_fill_(~allowed, float("-inf"))
    return mask


# The model settings (the model part of a seqlabel model file), with the C defaults
# of sl_model_config_default.
MODEL_DEFAULTS = dict(
    n_features=80, d_model=128, n_heads=4, n_layers=4, d_ff=512, n_classes=4,
    max_window=1024, activation="relu", norm_first=False, qkv_bias=True,
    scale_input=False, band_left=-1, band_right=-1, ln_eps=1e-5,
    stream_window=400, stream_left=100, stream_lookahead=50)


class SeqLabelEncoder(nn.Module):
    def __init__(self, **cfg):
        super().__init__()
        unknown = set(cfg) - set(MODEL_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown settings {sorted(unknown)}")
        c = dict(MODEL_DEFAULTS, **cfg)
        self.cfg = c
        d = c["d_model"]
        if d % 2 or d % c["n_heads"]:
            raise ValueError("d_model must be even and a multiple of n_heads")
        self.input_proj = nn.Linear(c["n_features"], d)
        layer = nn.TransformerEncoderLayer(
            d, c["n_heads"], c["d_ff"], dropout=0.0, activation=c["activation"],
            layer_norm_eps=c["ln_eps"], batch_first=True, norm_first=bool(c["norm_first"]))
        norm = nn.LayerNorm(d, eps=c["ln_eps"]) if c["norm_first"] else None
        try:
            self.encoder = nn.TransformerEncoder(layer, c["n_layers"], norm=norm,
                                                 enable_nested_tensor=False)
        except TypeError:
            self.encoder = nn.TransformerEncoder(layer, c["n_layers"], norm=norm)
        if not c["qkv_bias"]:
            for lay in self.encoder.layers:
                with torch.no_grad():
                    lay.self_attn.in_proj_bias.zero_()
                lay.self_attn.in_proj_bias.requires_grad_(False)
        self.classifier = nn.Linear(d, c["n_classes"])
        self.register_buffer("pe", positional_encoding(c["max_window"], d), persistent=False)

    def forward(self, feats):
        """feats: (batch, T, n_features), normalised. Returns (batch, T, n_classes) logits."""
        c = self.cfg
        T = feats.shape[1]
        if T > c["max_window"]:
            raise ValueError(f"window {T} exceeds max_window {c['max_window']}")
        x = self.input_proj(feats)
        if c["scale_input"]:
            x = x * math.sqrt(c["d_model"])
        x = x + self.pe[:T].to(x.dtype)
        mask = band_mask(T, c["band_left"], c["band_right"], dtype=x.dtype, device=x.device)
        x = self.encoder(x, mask=mask)
        return self.classifier(x)


def reference_logits(model, feats):
    """The numbers the C encoder must reproduce: float64, standard (non-fast) path.
    feats: (T, n_features) tensor. Returns (T, n_classes) float64."""
    m64 = SeqLabelEncoder(**model.cfg).double()
    m64.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
    m64.train()  # dropout is 0; training mode keeps torch off the eval fast path
    with torch.no_grad():
        return m64(feats.double().unsqueeze(0))[0]
