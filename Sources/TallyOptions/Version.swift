/// tally's version: `tally --version` and the server's metrics.
package let tallyVersion = "0.2.0"
