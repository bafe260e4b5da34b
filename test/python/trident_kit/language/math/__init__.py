from .relu import *
