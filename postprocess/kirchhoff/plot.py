"""Plot output shared by the scripts: palette PNGs, a third to a fifth of the size of full-colour
ones for line plots (matplotlib draws, PIL quantizes; plain savefig without PIL)."""


def save_png(fig, path, dpi=100, colours=128):
    """Saves `fig` as a palette PNG (at most `colours` colours, octree quantization, which keeps
    small saturated marks such as the vortex dots): line plots keep their look at a third to a fifth
    of the size of a full-colour PNG. Falls back to a plain savefig without PIL."""
    try:
        import io

        from PIL import Image
    except ImportError:
        fig.savefig(path, dpi=dpi)
        return
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png")
    buf.seek(0)
    img = Image.open(buf).convert("RGB").quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    img.save(path, optimize=True)
