package query

import ()

const ReportCols = `id, reporter, reporter_name, address, reported, reported_name, reason, game, created`
