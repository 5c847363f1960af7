def main():
    from arbitro.events import __doc__ as d
    print("cli ok", d)
