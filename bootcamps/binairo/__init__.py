"""placeholder until the platform manifest lands"""
