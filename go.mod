module oanquan

go 1.26.8
