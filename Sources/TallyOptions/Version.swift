/// tally's version: `tally --version`, the server's entity tags and metrics, the PDF producer.
package let tallyVersion = "0.1.0"
