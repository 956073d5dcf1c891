"""The machinery behind ``python -m benchmarks``, one job per module.

``registry``  the suites: script, arguments, result files, optional or not
``runner``    runs suites in this process through each script's ``main(argv)``
``results``   reads result files and describes the machine they came from
``tables``    one markdown section per suite, from each result file's own layout
``plots``     the figures (matplotlib, Agg backend)
``document``  assembles ``REPORT.md``
``readme``    the README's performance table, between its two markers
"""
